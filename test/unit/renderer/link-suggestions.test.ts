import { describe, expect, it } from 'vitest';
import { suggestionsFor } from '../../../src/renderer/src/features/chat/link-suggestions';

const note = (title: string, aliases: string[] = []) => ({ path: `${title}.md`, title, aliases });

describe('[[ completion', () => {
  it('folds case and Latin accents, as search does', () => {
    const titles = [note('Résumé tips'), note('Cafe\u0301 list'), note('Other', ['Über uns'])];
    expect(suggestionsFor(titles, 'resume').map((s) => s.title)).toEqual(['Résumé tips']);
    expect(suggestionsFor(titles, 'CAFÉ').map((s) => s.title)).toEqual(['Cafe\u0301 list']);
    expect(suggestionsFor(titles, 'uber')).toEqual([{ label: 'Über uns', title: 'Other', path: 'Other.md' }]);
  });

  it('keeps Thai and Bengali vowel signs: a word does not offer another sharing its consonants', () => {
    const titles = [note('ลิงก์'), note('ลงก์'), note('বাংলা'), note('বংল')];
    expect(suggestionsFor(titles, 'ลิงก์').map((s) => s.title)).toEqual(['ลิงก์']);
    expect(suggestionsFor(titles, 'ลงก์').map((s) => s.title)).toEqual(['ลงก์']);
    expect(suggestionsFor(titles, 'বাংলা').map((s) => s.title)).toEqual(['বাংলা']);
  });
});
