import { foldForSearch } from '../../shared/search/search-folding';
import { isArabicWord } from './arabic-proclitics';
import { isStopWord } from './stop-words';
import { hasUnspacedLetters, wordTokens } from './word-segments';

/**
 * The most of a query that is searched for: its first different words, in its first characters. Each
 * word is one more term FTS5 must match and mark: 30,000 words that one note held took a minute.
 */
export const maxQueryWords = 32;
export const maxQueryChars = 1000;

/** A word of a query as typed, and the words the index holds for it (several for `中文搜索`). */
export interface QueryWord {
  text: string;
  tokens: string[];
  /** Something follows it in the query: it is not being typed. */
  complete: boolean;
}

/**
 * Letters with their marks (without `\p{M}`, Thai `ลิงก์` was searched as `ล` and `งก`), digits and `_`;
 * FTS syntax characters (`"`, `*`, `-`, `:`) are not words.
 */
export const queryWordPattern = /[\p{L}\p{M}\p{N}_]+/gu;
/**
 * A word needs a letter or a digit: FTS5 reads `_` as a separator and folds away a lone accent, and the
 * empty prefix that leaves matched every word of every note.
 */
const letterOrDigit = /[\p{L}\p{N}]/u;

/** Whether a run of the query's word characters is a word (see letterOrDigit). */
export function isWordText(text: string): boolean {
  return letterOrDigit.test(text);
}

/**
 * The different words of a query that are searched for, and whether any were left out: at most
 * `maxQueryWords` of the index's words, whole query words within the first `maxQueryChars` characters.
 */
export function searchedWords(query: string): { words: QueryWord[]; shortened: boolean } {
  const words: QueryWord[] = [];
  const seen = new Set<string>();
  let count = 0;
  // matchAll is lazy: the rest of a long query is never scanned.
  for (const match of query.matchAll(queryWordPattern)) {
    const text = match[0];
    if (match.index + text.length > maxQueryChars) return { words, shortened: true };
    if (!isWordText(text)) continue;
    const key = foldForSearch(text);
    if (seen.has(key)) continue;
    seen.add(key);
    const tokens = wordTokens(text);
    const complete = match.index + text.length < query.length;
    const room = maxQueryWords - count;
    if (tokens.length > room) {
      if (room > 0)
        words.push({ text: tokens.slice(0, room).join(''), tokens: tokens.slice(0, room), complete });
      return { words, shortened: true };
    }
    count += tokens.length;
    words.push({ text, tokens, complete });
  }
  return { words, shortened: false };
}

/** The words of what the user typed. */
export function queryWords(query: string): QueryWord[] {
  return searchedWords(query).words;
}

/**
 * Whether FTS5 is slow to match a word as a prefix: a stop word or a word of one or two letters expands
 * to hundreds or thousands of the index's terms, whose doclists are merged for every query ("a"* took
 * 25 ms on a 10k-note vault of prose, "the"* 3 ms, "habit"* 0.2 ms). Such a word is matched whole once
 * it is typed; only the word being typed is matched as a prefix.
 */
export function slowAsPrefix(word: QueryWord): boolean {
  const [token, ...more] = word.tokens;
  return more.length === 0 && token !== undefined && (isStopWord(token) || [...token].length <= 2);
}

/** A term of the some-words ranking: a word (or words in a row) matched whole (stemmed) or as a prefix. */
export interface SomeWordsTerm {
  tokens: string[];
  prefix: boolean;
}

/** Which tokens of a word the some-words ranking takes apart: a run that reads as several words. */
function termsOfWord(word: QueryWord): string[][] {
  const long = word.tokens.filter((token) => [...token].length > 1);
  // `插件` (plugin) is cut into `插` and `件`, unknown to the dictionary: a word, not two. A single
  // character of a run is mostly a particle (の, 的) and is left out like an English stop word.
  if (long.length < 2) return [word.tokens];
  return word.tokens
    .filter((token) => !hasUnspacedLetters(token) || [...token].length > 1)
    .map((token) => [token]);
}

/**
 * The terms of the some-words ranking: every different word of the query but English stop words, so
 * that "how do I export a note" ranks by `export` and `note`; a run such as `如何导出笔记` gives a term
 * per word in it. Whole words match whole (as stemmed: `notes` finds `note`), which found the wanted
 * note in the first five for 2 more of the 102 eval questions than prefixes did; the word being typed
 * (the last, nothing after it) and words of unspaced scripts and Arabic (whose cuts and endings may
 * differ in a note) match as prefixes.
 */
export function someWordsTerms(words: readonly QueryWord[]): SomeWordsTerm[] {
  const terms: SomeWordsTerm[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    const pieces = termsOfWord(word);
    pieces.forEach((tokens, index) => {
      const key = foldForSearch(tokens.join(' '));
      if ((tokens.length === 1 && isStopWord(tokens[0]!)) || seen.has(key)) return;
      seen.add(key);
      const typing = !word.complete && index === pieces.length - 1;
      const text = tokens.join('');
      terms.push({ tokens, prefix: typing || hasUnspacedLetters(text) || isArabicWord(text) });
    });
  }
  return terms;
}

/** Whether the some-words terms could find a note the all-words expression did not: not one same word. */
export function someWordsDiffer(words: readonly QueryWord[], terms: readonly SomeWordsTerm[]): boolean {
  return terms.length > 1 || (terms.length === 1 && words.length > 1);
}
