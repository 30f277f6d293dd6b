import { foldForSearch } from '../../shared/search/search-folding';
import type { SearchHit, SimilarByWords } from '../../shared/index-domain';
import { isStopWord } from './stop-words';
import { hasUnspacedLetters, wordTokens } from './word-segments';

/** How many of a note's words a "more like this" query takes (searches take at most 32). */
const likeThisWords = 24;
/** Title words count three times, heading words twice: they say what a note is about. */
const columnWeights = { title: 3, headings: 2, body: 1 } as const;

const wordPattern = /[\p{L}\p{M}\p{N}_]+/gu;
const hasLetter = /\p{L}/u;

/** Whether a word says something about a note: not a stop word, a number or a letter or two. */
function telling(token: string): boolean {
  if (!hasLetter.test(token) || isStopWord(token)) return false;
  // A character of Chinese or Japanese can be a word; of Latin script, two letters rarely are.
  return [...token].length >= (hasUnspacedLetters(token) ? 2 : 3);
}

/**
 * The words a note uses most, weighted by where they stand, as a search query: BM25 over them ranks the
 * notes that share the note's rarest words first (its idf does what a hand-made weighting would).
 */
export function likeThisQuery(columns: { title: string; headings: string; body: string }): string {
  const counts = new Map<string, { word: string; weight: number }>();
  for (const name of ['title', 'headings', 'body'] as const) {
    const text = columns[name];
    for (const match of text.matchAll(wordPattern)) {
      // A tag is related notes' own reason ("shares #garden"): it is not counted again as a shared word.
      if (text[match.index - 1] === '#') continue;
      for (const token of wordTokens(match[0])) {
        if (!telling(token)) continue;
        const key = foldForSearch(token);
        const entry = counts.get(key) ?? { word: token, weight: 0 };
        entry.weight += columnWeights[name];
        counts.set(key, entry);
      }
    }
  }
  const words = [...counts.values()]
    .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
    .slice(0, likeThisWords)
    .map((entry) => entry.word);
  // A space after the last word: it is complete, not a prefix being typed.
  return words.length > 0 ? `${words.join(' ')} ` : '';
}

/** A word between the snippet's marks (highlightStart, highlightEnd). */
// eslint-disable-next-line no-control-regex -- the marks are control characters so no note can hold them
const markedWord = /\u0002([^\u0003]*)\u0003/gu;

/** The words a hit's snippet marks, folded and without repeats: the words it shares with the query. */
function markedWords(snippet: string, most: number): string[] {
  const words = new Map<string, string>();
  for (const [, word] of snippet.matchAll(markedWord)) {
    const key = foldForSearch(word!);
    if (!words.has(key) && telling(word!.toLocaleLowerCase())) words.set(key, word!.toLocaleLowerCase());
  }
  return [...words.values()].slice(0, most);
}

/** Search hits of a "more like this" query as similar notes, the note itself left out. */
export function similarByWords(path: string, hits: readonly SearchHit[], limit: number): SimilarByWords[] {
  return hits
    .filter((hit) => hit.path !== path)
    .slice(0, limit)
    .map((hit) => ({
      path: hit.path,
      title: hit.title,
      score: hit.score,
      words: markedWords(hit.snippet, 3),
    }));
}
