import { describe, expect, it } from 'vitest';
import {
  someWordsExpression,
  wordExpression,
  type MatchLevel,
} from '../../../src/main/index/search-expressions';
import {
  maxQueryWords,
  searchedWords,
  someWordsDiffer,
  someWordsTerms,
} from '../../../src/main/index/search-query';
import { separateWords, wordSeparator } from '../../../src/main/index/word-segments';

const texts = (query: string) => searchedWords(query).words.map((word) => word.text);
const tokens = (query: string) => searchedWords(query).words.map((word) => word.tokens);

describe('the words of a query', () => {
  it('keeps combining marks inside words: Thai, Bengali and Devanagari vowel signs and viramas', () => {
    expect(texts('ลิงก์')).toEqual(['ลิงก์']);
    expect(texts('প্লাগইন, হিন্দি: हिंदी')).toEqual(['প্লাগইন', 'হিন্দি', 'हिंदी']);
    expect(texts('Café "naïve" -résumé*')).toEqual(['Café', 'naïve', 'résumé']);
  });

  it('takes no lone accent or underscores for a word: FTS5 would search for an empty prefix', () => {
    expect(texts('\u0301 ___ notes')).toEqual(['notes']);
  });

  it('takes words differing only in case or Latin accents once, but vowel-signed forms apart', () => {
    expect(texts('Cafe café CAFÉ')).toEqual(['Cafe']);
    expect(texts('ลิงก์ ลงก์')).toEqual(['ลิงก์', 'ลงก์']);
  });

  it('cuts Chinese, Japanese and Thai runs into the words the index holds', () => {
    expect(tokens('中文搜索引擎')).toEqual([['中文', '搜索', '引擎']]);
    expect(tokens('日本語のテキスト検索')).toEqual([['日本語', 'の', 'テキスト', '検索']]);
    expect(tokens('ลิงก์ไปยังโน้ต')).toEqual([['ลิงก์', 'ไป', 'ยัง', 'โน้ต']]);
    expect(tokens('Kasten中文')).toEqual([['Kasten', '中文']]);
    // Korean is written with spaces: its words stay whole.
    expect(tokens('검색 엔진을')).toEqual([['검색'], ['엔진을']]);
  });

  it('counts the index words of a long run against the limit, and says the query was shortened', () => {
    const sentence = '我们今天在图书馆里读了很多关于中文搜索引擎的书'.repeat(4);
    const { words, shortened } = searchedWords(sentence);
    expect(shortened).toBe(true);
    expect(words.flatMap((word) => word.tokens)).toHaveLength(maxQueryWords);
    expect(sentence.startsWith(words[0]!.text)).toBe(true);
  });
});

describe('a query word at each level of matching', () => {
  const at = (query: string, level: MatchLevel) =>
    searchedWords(query).words.map((word) => wordExpression(word, level));

  it('is a whole word, then a prefix, a run of words as a phrase', () => {
    expect(at('slip 中文搜索', 'whole')).toEqual(['"slip"', '"中文 搜索"']);
    expect(at('slip 中文搜索', 'prefix')).toEqual(['"slip"*', '"中文 搜索"*']);
  });

  it('is whole once typed, when as a prefix it would expand to thousands of words: stop words, one or two letters', () => {
    expect(at('what is a good habit', 'prefix')).toEqual(['"what"', '"is"', '"a"', '"good"*', '"habit"*']);
    // Still being typed, it is a prefix.
    expect(at('good a', 'prefix')[1]).toBe('"a"*');
  });

  it('at the stem level also matches its English stem in the stem columns', () => {
    expect(at('notes', 'stem')).toEqual(['("notes"* OR {title_stems stems} : ("\uE000note"))']);
  });

  it('has no stem when it is not an English word, a stop word, or its stem would be shorter than three letters', () => {
    for (const query of ['中文', 'the', 'ok', 'заметки']) {
      expect(at(query, 'stem')).toEqual(at(query, 'prefix'));
    }
  });
});

describe('the terms of the some-words ranking', () => {
  const terms = (query: string) => someWordsTerms(searchedWords(query).words);
  const tokensOf = (query: string) => terms(query).map(({ tokens }) => tokens.join(' '));

  it('leaves out English stop words and keeps every word of other languages', () => {
    expect(tokensOf('How do I export my notes to PDF?')).toEqual(['export', 'notes', 'PDF']);
    expect(tokensOf('Wie funktioniert die Methode')).toEqual(['Wie', 'funktioniert', 'die', 'Methode']);
    expect(tokensOf('如何导出笔记')).toEqual(['如何', '导出', '笔记']);
  });

  it('takes a run cut into single characters (a word the dictionary does not know) as one term', () => {
    // ICU cuts 插件 (plugin) into 插 and 件: searching either alone found unrelated notes.
    expect(tokensOf('插件')).toEqual(['插 件']);
    expect(tokensOf('文件夹')).toEqual(['文件 夹']);
    // In a question, the single characters (mostly particles) are left out.
    expect(tokensOf('怎么把笔记导出成PDF')).toEqual(['怎么', '笔记', '导出', 'PDF']);
  });

  it('matches whole words (or by their stem), but the word being typed and the words of unspaced scripts as prefixes', () => {
    expect(someWordsExpression(terms('how do I export my fi'))).toBe(
      '("export" OR {title_stems stems} : ("\uE000export")) OR "fi"*',
    );
    expect(someWordsExpression(terms('如何导出笔记'))).toBe('"如何"* OR "导出"* OR "笔记"*');
  });

  it('runs only when its terms could find a note the all-words ranking did not', () => {
    const differ = (query: string) => someWordsDiffer(searchedWords(query).words, terms(query));
    expect(differ('what is a zettelkasten')).toBe(true);
    expect(differ('搜索引擎')).toBe(true);
    expect(differ('zettelkasten')).toBe(false);
    expect(differ('插件')).toBe(false);
    expect(differ('what is the')).toBe(false);
  });
});

describe('Arabic words', () => {
  it('are looked for with their proclitics: conjunction, preposition and article written onto them', () => {
    const expression = wordExpression(searchedWords('ماء').words[0]!, 'prefix');
    for (const form of ['"ماء"*', '"الماء"*', '"بالماء"*', '"وماء"*', '"للماء"*'])
      expect(expression).toContain(form);
    // A word typed with its article is looked for without it too.
    expect(wordExpression(searchedWords('الماء').words[0]!, 'prefix')).toBe(expression);
  });
});

describe('separating the words of unspaced scripts', () => {
  it('puts a zero-width space between words, and between a run and the letters it touches', () => {
    const s = wordSeparator;
    expect(separateWords('见中文搜索。Kasten中文ノート')).toBe(
      `见${s}中文${s}搜索${s}。Kasten${s}中文${s}ノート`,
    );
    expect(separateWords('ลิงก์ไปยังโน้ต ok')).toBe(`ลิงก์${s}ไป${s}ยัง${s}โน้ต ok`);
  });

  it('returns other text as it is', () => {
    const text = 'Plain English,한국어 검색, हिंदी, Ελληνικά.';
    expect(separateWords(text)).toBe(text);
  });
});
