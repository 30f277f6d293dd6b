import { foldForSearch } from '../../shared/search/search-folding';
import { englishStem } from './english-stemmer';
import { noteLanguage, type StemmedLanguage } from './note-language';
import { isStopWord } from './stop-words';

/**
 * Stems are matched in the language of the note only: a note's words are stemmed by its language's
 * stemmer into the stem columns (see stemColumns), each stem behind that language's mark (a private-use character,
 * which FTS5 keeps inside the token), and a query word is looked for there as each language stems it.
 * The English stemmer never reaches a Spanish note's words: `embellece` was stemmed as English and
 * `embed` (stem `emb`) found it by the prefix.
 */
const stemmers: Record<StemmedLanguage, Stemmer> = {
  en: { mark: '\uE000', stem: englishStem, known: new Map() },
};

interface Stemmer {
  mark: string;
  stem: (word: string) => string;
  /** Stems already found (a vault's words repeat from note to note), or null: not a word to stem. */
  known: Map<string, string | null>;
}

/** Shorter stems say too little: `as` of `ass`. Words this short are matched whole or as prefixes. */
export const minStemLength = 3;
/** Stems kept in memory at most; then they are found again. */
const maxKnown = 100_000;

const stemmable = /^[a-z]+$/;
const wordPattern = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The stem of a folded word, or null when it is not one to stem (a stop word, too short, other letters). */
function stemOf(word: string, stemmer: Stemmer): string | null {
  let stemmed = stemmer.known.get(word);
  if (stemmed !== undefined) return stemmed;
  stemmed = null;
  if (stemmable.test(word) && !isStopWord(word)) {
    const stem = stemmer.stem(word);
    if (stem.length >= minStemLength) stemmed = stem;
  }
  if (stemmer.known.size >= maxKnown) stemmer.known.clear();
  stemmer.known.set(word, stemmed);
  return stemmed;
}

/** A note's stem columns: the stems of its title and aliases, and of its headings and body. */
export type StemColumns = [titleStems: string, stems: string];

/**
 * The stem columns of a note: every different stem of the words of its title and aliases, then of its
 * headings and body, each marked with its language; empty when no stemmer knows the language (told by
 * the body, which says the most). Title words found by their stem still weigh as title words.
 */
export function stemColumns(
  [title, aliases, headings, body]: readonly [string, string, string, string],
  text: string,
): StemColumns {
  const language = noteLanguage(text);
  if (language === null) return ['', ''];
  const stemmer = stemmers[language];
  const column = (texts: readonly string[]) => {
    const stems = new Set<string>();
    const seen = new Set<string>();
    for (const part of texts) {
      for (const [word] of foldForSearch(part).matchAll(wordPattern)) {
        if (seen.has(word)) continue;
        seen.add(word);
        const stemmed = stemOf(word, stemmer);
        if (stemmed !== null) stems.add(stemmer.mark + stemmed);
      }
    }
    return [...stems].join(' ');
  };
  return [column([title, aliases]), column([headings, body])];
}

/** A query word's stems, each as the stem columns hold it: one per language that stems the word. */
export function queryStems(word: string): string[] {
  const folded = foldForSearch(word);
  return Object.values(stemmers).flatMap((stemmer) => {
    const stemmed = stemOf(folded, stemmer);
    return stemmed === null ? [] : [stemmer.mark + stemmed];
  });
}

/**
 * Whether a folded word of a note has the stem of a folded query word in some language (snippets mark
 * the words a note matched by their stem). Only words that begin as the stem does are stemmed.
 */
export function sameStem(word: string, term: string): boolean {
  return Object.values(stemmers).some((stemmer) => {
    const termStem = stemOf(term, stemmer);
    return (
      termStem !== null &&
      word.startsWith(termStem.slice(0, minStemLength)) &&
      stemOf(word, stemmer) === termStem
    );
  });
}
