import { foldForSearch } from '../../shared/search/search-folding';
import type { SearchHit, SimilarByWords } from '../../shared/index-domain';
import { stopWordsOf } from './language-stop-words';
import { surelyCutTokens } from './segment-doubts';
import type { TermCounts } from './term-statistics';
import { hasUnspacedLetters } from './word-segments';

/** How many of a note's words a "more like this" query takes: its best by tf × idf (Lucene takes 25). */
const likeThisWords = 12;
/**
 * A word held by more than this share of the notes says little about any one of them (in the eval
 * vault: "day", "minute", "first", "every"), and ORed into the query it makes bm25 score most of the
 * vault (Lucene's maxDocFreqPct)…
 */
const commonShare = 0.2;
/** …but in a small vault a share is a handful of notes: a word is common only in more notes than this. */
const commonAtLeast = 10;
/** Title words count three times, heading words twice: they say what a note is about. */
const columnWeights = { title: 3, headings: 2, body: 1 } as const;

const wordPattern = /[\p{L}\p{M}\p{N}_]+/gu;
const hasLetter = /\p{L}/u;
const contraction = /^['’]t\b/u;

/**
 * Whether a word says something about a note: not a stop word of its language (`isStopWord`, see
 * stopWordsOf), a number or a letter or two.
 */
function telling(token: string, isStopWord: (word: string) => boolean): boolean {
  if (!hasLetter.test(token) || isStopWord(token)) return false;
  // A character of Chinese or Japanese can be a word; of Latin script, two letters rarely are.
  return [...token].length >= (hasUnspacedLetters(token) ? 2 : 3);
}

interface WeightedWord {
  word: string;
  weight: number;
}

/** The note's telling words, each once (folded), weighted by how often and where it stands, most first. */
function weightedWords(columns: { title: string; headings: string; body: string }): WeightedWord[] {
  const counts = new Map<string, WeightedWord>();
  const isStopWord = stopWordsOf(`${columns.title}\n${columns.headings}\n${columns.body}`);
  for (const name of ['title', 'headings', 'body'] as const) {
    const text = columns[name];
    for (const match of text.matchAll(wordPattern)) {
      // A tag is related notes' own reason ("shares #garden"): it is not counted again as a shared word.
      if (text[match.index - 1] === '#') continue;
      // "doesn" of "doesn't": rare enough to be chosen, and says nothing.
      if (contraction.test(text.slice(match.index + match[0].length, match.index + match[0].length + 3)))
        continue;
      for (const token of surelyCutTokens(match[0], isStopWord)) {
        if (!telling(token, isStopWord)) continue;
        const key = foldForSearch(token);
        const entry = counts.get(key) ?? { word: token, weight: 0 };
        entry.weight += columnWeights[name];
        counts.set(key, entry);
      }
    }
  }
  return [...counts.values()].sort(byWeight);
}

const byWeight = (a: WeightedWord, b: WeightedWord) =>
  b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0);

/**
 * The words that tell a note from the others, as a search query, picked as Lucene's MoreLikeThis picks
 * them: each term of the note (words with the same stem together) scores its weight in the note times
 * its idf in the vault, 1 + ln(notes / (notes holding it + 1)); a term no other note holds cannot find
 * one, and a common one is left out (see commonShare). Without `counts`, the words the note uses most.
 */
export function likeThisQuery(
  columns: { title: string; headings: string; body: string },
  counts: TermCounts | null,
): string {
  const words = weightedWords(columns);
  const chosen = counts ? rarest(words, counts) : words;
  const query = chosen.slice(0, likeThisWords).map((entry) => entry.word);
  // A space after the last word: it is complete, not a prefix being typed.
  return query.length > 0 ? `${query.join(' ')} ` : '';
}

/** The words by tf × idf, best first, without those no other note holds or too many do. */
function rarest(words: readonly WeightedWord[], counts: TermCounts): WeightedWord[] {
  const terms = counts.termsOf(words.map((entry) => entry.word));
  const byTerm = new Map<string, WeightedWord>();
  words.forEach((entry, index) => {
    const term = terms[index];
    if (!term) return;
    // The word used most names the term in the query ("notes" and "note" are one term).
    const known = byTerm.get(term);
    if (known) known.weight += entry.weight;
    else byTerm.set(term, { ...entry });
  });
  const holding = counts.notesHolding([...byTerm.keys()]);
  const notes = counts.notes;
  const common = Math.max(commonAtLeast, commonShare * notes);
  return [...byTerm.entries()]
    .flatMap(([term, { word, weight }]) => {
      const held = holding.get(term) ?? 0;
      if (held < 2 || held > common) return [];
      return [{ word, weight: weight * (1 + Math.log(notes / (held + 1))) }];
    })
    .sort(byWeight);
}

/** A word between the snippet's marks (highlightStart, highlightEnd). */
// eslint-disable-next-line no-control-regex -- the marks are control characters so no note can hold them
const markedWord = /\u0002([^\u0003]*)\u0003/gu;

/** The words a hit's snippet marks, folded and without repeats: the words it shares with the query. */
function markedWords(snippet: string, most: number): string[] {
  const words = new Map<string, string>();
  const isStopWord = stopWordsOf(snippet);
  for (const [, word] of snippet.matchAll(markedWord)) {
    const key = foldForSearch(word!);
    if (!words.has(key) && telling(word!.toLocaleLowerCase(), isStopWord)) {
      words.set(key, word!.toLocaleLowerCase());
    }
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
