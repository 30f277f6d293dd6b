import { foldForSearch } from '../../../shared/search/search-folding';
import { isStopWord } from '../../index/stop-words';
import { wordTokens } from '../../index/word-segments';

const wordPattern = /[\p{L}\p{M}\p{N}_]+/gu;
/** BM25's usual constants: how fast a repeated word stops counting more, and how much length matters. */
const k1 = 1.2;
const b = 0.75;

/** A text's words, folded as the search index folds them, stop words left out. */
export function similarityTerms(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of text.matchAll(wordPattern)) {
    for (const token of wordTokens(word)) {
      if (isStopWord(token)) continue;
      terms.push(foldForSearch(token.toLocaleLowerCase()));
    }
  }
  return terms;
}

/**
 * Whether two folded words are one word in another form: the same, or one the other with a short ending
 * (`citation`, `citations`; `format`, `formatting`). The index has no stemmer; this is its light stand-in.
 */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short);
}

/**
 * How well each passage answers `query`, from 0 to about 1: BM25 of the query over the passages, divided
 * by what the query's words weigh together (each word's idf at one occurrence in a passage of average
 * length). 1 means a passage holds every telling word of the query; a passage sharing only a common word
 * scores little. Comparable across passages of one call, and with a threshold like 0.7.
 */
export function lexicalScores(query: string, passages: readonly string[]): number[] {
  const queryTerms = [...new Set(similarityTerms(query))];
  if (queryTerms.length === 0 || passages.length === 0) return passages.map(() => 0);
  const documents = passages.map(similarityTerms);
  const averageLength = Math.max(
    1,
    documents.reduce((sum, terms) => sum + terms.length, 0) / documents.length,
  );
  const idf = queryTerms.map((term) => {
    const holding = documents.filter((terms) => terms.some((word) => sameWord(word, term))).length;
    return Math.log(1 + (documents.length - holding + 0.5) / (holding + 0.5));
  });
  const weight = idf.reduce((sum, value) => sum + value, 0);
  return documents.map((terms) => {
    let score = 0;
    queryTerms.forEach((term, index) => {
      const frequency = terms.filter((word) => sameWord(word, term)).length;
      if (frequency === 0) return;
      const norm = k1 * (1 - b + (b * terms.length) / averageLength);
      score += (idf[index]! * (frequency * (k1 + 1))) / (frequency + norm);
    });
    return weight > 0 ? Math.min(1, score / weight) : 0;
  });
}
