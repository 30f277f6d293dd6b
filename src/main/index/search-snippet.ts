/**
 * A search hit's snippet. FTS5's `snippet()` scores every match against every other: a search for a word
 * that a 2 MB note holds 77k times took 43 s, blocking the main thread. Its `highlight()` is exact and
 * cheap on short columns but also grows with the square of the matches (1.8 ms for 2,700 matches in
 * 16 KB, 1.2 s for 87k in 512 KB). So short columns are marked by highlight(), long ones here, and the
 * snippet is chosen in one pass over the matches.
 */

import { foldForSearch } from '../../shared/search/search-folding';
import { startsWithProcliticForm, withoutArticle } from './arabic-proclitics';
import { wordSeparator } from './word-segments';

/** Marks around matched terms, as `highlight()` was asked to put them. */
export interface SnippetMarks {
  start: string;
  end: string;
}

/** A column's text and where the query's words matched in it (`term`: which word). */
export interface SnippetColumn {
  text: string;
  hits: Hit[];
}

interface Hit {
  start: number;
  end: number;
  term: number;
}

interface Window {
  score: number;
  first: number;
  last: number;
}

/** About how many characters of text a snippet shows around its matches. */
const width = 120;

/** What a word is made of here: letters, digits, marks, private-use characters (FTS5's unicode61 too). */
const wordCharacters = '[\\p{L}\\p{N}\\p{M}\\p{Co}]';
const wordCharacter = new RegExp(wordCharacters, 'u');
const wordPattern = new RegExp(`${wordCharacters}+`, 'gu');

/**
 * The best snippet over the columns: the stretch of about 120 characters that holds the most different
 * query words (then the most matches), the matches centred, cut between words, `…` where text was cut.
 * Columns come in the order to prefer when their best stretches score the same.
 */
export function searchSnippet(
  columns: readonly SnippetColumn[],
  terms: readonly string[],
  marks: SnippetMarks,
): string {
  let best: { column: SnippetColumn; window: Window } | null = null;
  for (const column of columns) {
    const window = bestWindow(column.hits, terms.length);
    if (window && (!best || window.score > best.window.score)) best = { column, window };
  }
  return best ? cut(best.column, best.window, marks) : '';
}

/**
 * The query's words as matches are compared with them: Latin accents dropped and case folded, as FTS5
 * does; other marks (Thai and Indic vowel signs) kept, as FTS5 keeps them; an Arabic article dropped,
 * since a word matches with or without its proclitics (see arabic-proclitics).
 */
export function snippetTerms(words: readonly string[]): string[] {
  return words.map((word) => foldForSearch(withoutArticle(word)));
}

/** A column as FTS5's highlight() marked it. */
export function highlightedColumn(
  highlighted: string,
  terms: readonly string[],
  marks: SnippetMarks,
): SnippetColumn {
  const parts: string[] = [];
  const hits: Hit[] = [];
  let length = 0;
  let from = 0;
  for (;;) {
    const open = highlighted.indexOf(marks.start, from);
    if (open < 0) break;
    const close = highlighted.indexOf(marks.end, open + marks.start.length);
    if (close < 0) break;
    parts.push(highlighted.slice(from, open));
    length += open - from;
    const matched = highlighted.slice(open + marks.start.length, close);
    parts.push(matched);
    hits.push({ start: length, end: length + matched.length, term: termOf(matched, terms) });
    length += matched.length;
    from = close + marks.end.length;
  }
  parts.push(highlighted.slice(from));
  return { text: parts.join(''), hits };
}

/**
 * A long column's matches, found in one pass: words (runs of letters, digits and marks) that start with
 * a query word once Latin accents and case are folded, or, with `sameStem`, share its stem. Stops after
 * `maxHits`: the snippet is one of the first matches.
 */
export function matchedColumn(
  text: string,
  terms: readonly string[],
  maxHits = 1000,
  sameStem: ((word: string, term: string) => boolean) | null = null,
): SnippetColumn {
  const hits: Hit[] = [];
  for (const match of text.matchAll(wordPattern)) {
    const folded = foldForSearch(match[0]);
    const term = terms.findIndex(
      (candidate) => startsWithTerm(folded, candidate) || sameStem?.(folded, candidate) === true,
    );
    if (term < 0) continue;
    hits.push({ start: match.index, end: match.index + match[0].length, term });
    if (hits.length >= maxHits) break;
  }
  return { text, hits };
}

/** Sliding over the matches in order: each window starts at a match and spans `width` characters. */
function bestWindow(hits: readonly Hit[], termCount: number): Window | null {
  const counts = new Array<number>(termCount + 1).fill(0);
  let distinct = 0;
  let last = -1;
  let best: Window | null = null;
  for (let first = 0; first < hits.length; first++) {
    const limit = hits[first]!.start + width;
    if (last < first) {
      // The window holds at least its first match, however long.
      last = first;
      if (counts[hits[first]!.term]!++ === 0) distinct++;
    }
    while (last + 1 < hits.length && hits[last + 1]!.end <= limit) {
      last++;
      if (counts[hits[last]!.term]!++ === 0) distinct++;
    }
    const score = distinct * 1000 + (last - first + 1 - distinct);
    if (!best || score > best.score) best = { score, first, last };
    if (--counts[hits[first]!.term]! === 0) distinct--;
  }
  return best;
}

function cut(column: SnippetColumn, window: Window, marks: SnippetMarks): string {
  const { text, hits } = column;
  const from = hits[window.first]!.start;
  const to = hits[window.last]!.end;
  // Matches sit in the middle of the snippet, or near the column's start, which it then shows.
  let start = Math.max(0, Math.min(from - Math.floor((width - (to - from)) / 2), text.length - width));
  if (start <= width / 4) start = 0;
  let end = Math.max(to, Math.min(text.length, start + width));
  // Cut between words when one is near (text without spaces, such as Japanese, is cut where it is).
  if (start > 0 && isWordCharacter(text, start - 1)) {
    let next = start;
    while (next < Math.min(from, start + 20) && isWordCharacter(text, next)) next++;
    if (!isWordCharacter(text, next) || next === from) start = next;
  }
  if (end < text.length && isWordCharacter(text, end)) {
    let previous = end;
    while (previous > Math.max(to, end - 20) && isWordCharacter(text, previous - 1)) previous--;
    if (!isWordCharacter(text, previous - 1) || previous === to) end = previous;
  }
  // Centring may bring earlier matches into view: they are marked too.
  let first = window.first;
  while (first > 0 && hits[first - 1]!.start >= start) first--;
  const pieces: string[] = [];
  let at = start;
  for (let index = first; index < hits.length && hits[index]!.start < end; index++) {
    const hit = hits[index]!;
    pieces.push(text.slice(at, hit.start), marks.start, text.slice(hit.start, hit.end), marks.end);
    at = hit.end;
  }
  pieces.push(text.slice(at, end));
  // The separators put between the words of Chinese, Thai and the like (see word-segments) go.
  const body = pieces.join('').replaceAll(wordSeparator, '').replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

function isWordCharacter(text: string, index: number): boolean {
  return wordCharacter.test(text[index] ?? ' ');
}

/** Whether a folded word of the text is a match for a term: it starts with it, proclitics aside. */
function startsWithTerm(folded: string, term: string): boolean {
  return folded.startsWith(term) || startsWithProcliticForm(folded, term);
}

/** Which query word a match is for: one it starts with, else the one sharing the longest start. */
function termOf(matched: string, terms: readonly string[]): number {
  const folded = foldForSearch(matched);
  let best = terms.length;
  let bestShared = 0;
  for (let index = 0; index < terms.length; index++) {
    const term = terms[index]!;
    if (startsWithTerm(folded, term)) return index;
    let shared = 0;
    while (shared < term.length && shared < folded.length && term[shared] === folded[shared]) shared++;
    if (shared > bestShared) {
      best = index;
      bestShared = shared;
    }
  }
  return best;
}
