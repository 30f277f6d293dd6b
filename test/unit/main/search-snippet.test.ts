import { describe, expect, it } from 'vitest';
import {
  highlightedColumn,
  matchedColumn,
  searchSnippet,
  snippetTerms,
} from '../../../src/main/index/search-snippet';
import { wordSeparator } from '../../../src/main/index/word-segments';

const marks = { start: '[', end: ']' };

/** A snippet of plain columns, matched here (as long columns are). */
function snippetOf(columns: string[], query: string): string {
  const terms = snippetTerms(query.split(' '));
  return searchSnippet(
    columns.map((text) => matchedColumn(text, terms)),
    terms,
    marks,
  );
}

const filler = (words: number, from = 0) =>
  Array.from({ length: words }, (_, index) => `word${from + index}`).join(' ');

describe('search snippets', () => {
  it('shows the stretch holding every query word rather than one word many times', () => {
    const text = `${filler(40)} slip slip slip slip ${filler(40, 100)} a slip box of cards ${filler(40, 200)}`;
    const snippet = snippetOf([text], 'slip box');
    expect(snippet).toContain('a [slip] [box] of cards');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('centres a match deep in a long column and cuts between words', () => {
    const text = `${filler(200)} here is the needle in the text ${filler(200, 500)}`;
    const snippet = snippetOf([text], 'needle');
    const [before = '', after = ''] = snippet.split('[needle]');
    expect(Math.abs(before.length - after.length)).toBeLessThan(20);
    // Whole words only: every word of the snippet is one of the text's.
    const words = new Set(text.split(' '));
    for (const word of snippet.replace(/[…[\]]/g, '').split(' ')) expect(words.has(word)).toBe(true);
  });

  it('shows a column from its start when the match is near it', () => {
    const snippet = snippetOf([`The needle is near the start. ${filler(100)}`], 'needle');
    expect(snippet.startsWith('The [needle] is near the start.')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippetOf(['short needle'], 'needle')).toBe('short [needle]');
  });

  it('prefers the earlier column when two score the same, and uses whichever column matched', () => {
    expect(snippetOf(['body with target', 'Target'], 'target')).toBe('body with [target]');
    expect(snippetOf(['nothing here', 'Target'], 'target')).toBe('[Target]');
    expect(snippetOf(['nothing here', 'nor here'], 'target')).toBe('');
  });

  it('matches words by their start with accents and case folded, not inside other words', () => {
    const decomposed = 'Cafe\u0301';
    expect(snippetOf([`Un CAFÉ, un ${decomposed}, cafeteria, and escafe.`], 'cafe')).toBe(
      `Un [CAFÉ], un [${decomposed}], [cafeteria], and escafe.`,
    );
    expect(snippetOf(['Über uns'], 'uber')).toBe('[Über] uns');
  });

  it('reads a huge column with tens of thousands of matches in one pass, from its first matches', () => {
    const huge = 'lorem ipsum dolor sit amet '.repeat(80_000);
    const column = matchedColumn(huge, snippetTerms(['lorem']), 1000);
    expect(column.hits).toHaveLength(1000);
    const snippet = searchSnippet([column], snippetTerms(['lorem']), marks);
    expect(snippet.startsWith('[lorem] ipsum dolor sit amet [lorem]')).toBe(true);
    expect(snippet.length).toBeLessThan(200);
  });

  it('takes the matches FTS5 marked, including words it matched by their stem', () => {
    const terms = snippetTerms(['studies', 'box']);
    const column = highlightedColumn('A [study] of the slip [boxes] we keep.', terms, marks);
    expect(column.text).toBe('A study of the slip boxes we keep.');
    expect(column.hits).toEqual([
      { start: 2, end: 7, term: 0 },
      { start: 20, end: 25, term: 1 },
    ]);
    expect(searchSnippet([column], terms, marks)).toBe('A [study] of the slip [boxes] we keep.');
  });

  it('cuts text without spaces, as in Japanese, around its match', () => {
    const text = `${'あ'.repeat(300)}名前${'い'.repeat(300)}`;
    const terms = snippetTerms(['名前']);
    const column = highlightedColumn(text.replace('名前', '[名前]'), terms, marks);
    const snippet = searchSnippet([column], terms, marks);
    expect(snippet).toContain('[名前]');
    expect(snippet.length).toBeLessThan(140);
  });
  it('folds Latin accents only: a Thai or Bengali word is not marked in another sharing its consonants', () => {
    // ลิงก์ (link) and ลงก์ differ by a vowel sign; so do বাংলা and বংল.
    expect(snippetOf(['ลงก์ ลิงก์ ลิงก์ไป', 'x'], 'ลิงก์')).toBe('ลงก์ [ลิงก์] [ลิงก์ไป]');
    expect(snippetOf(['বংল বাংলা'], 'বাংলা')).toBe('বংল [বাংলা]');
  });

  it('drops the separators put between the words of Chinese and Thai from the snippet', () => {
    const separated = ['我们', '使用', '搜索', '引擎'].join(wordSeparator);
    expect(snippetOf([separated], '搜索')).toBe('我们使用[搜索]引擎');
  });
});
