import { describe, expect, it } from 'vitest';
import { foldForSearch } from '../../../../src/shared/search/search-folding';

describe('folding text for search', () => {
  it('folds case and Latin diacritics, precomposed or not', () => {
    expect(foldForSearch('Café')).toBe('cafe');
    expect(foldForSearch('Cafe\u0301 RÉSUMÉ Über ñ')).toBe('cafe resume uber n');
  });

  it('keeps the vowel signs and viramas of Thai, Devanagari and Bengali', () => {
    expect(foldForSearch('ลิงก์')).toBe('ลิงก์');
    expect(foldForSearch('ลิงก์')).not.toBe(foldForSearch('ลงก์'));
    expect(foldForSearch('हिंदी')).toBe('हिंदी');
    expect(foldForSearch('প্লাগইন')).toBe('প্লাগইন');
  });

  it('keeps Hangul syllables whole', () => {
    expect(foldForSearch('한국어 검색')).toBe('한국어 검색');
  });
});
