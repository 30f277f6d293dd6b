/**
 * Words of scripts written without spaces between them: Chinese, Japanese, Thai, Lao, Khmer and Burmese.
 * FTS5's unicode61 takes a whole run of such letters for one token, so a word inside a sentence could
 * not be found. The index and the query both cut such runs into words with the platform's segmenter
 * (ICU's dictionaries) and put a zero-width space, which unicode61 treats as a separator, between them.
 */

/** Between the words of a run; invisible in a snippet, and taken out of one (see search-snippet). */
export const wordSeparator = '\u200b';

const unspacedScripts =
  '\\p{scx=Han}\\p{scx=Hira}\\p{scx=Kana}\\p{scx=Thai}\\p{scx=Laoo}\\p{scx=Khmr}\\p{scx=Mymr}';
const unspacedCharacter = new RegExp(`[${unspacedScripts}]`, 'u');

/** Whether a text holds a letter of a script written without spaces. */
export function hasUnspacedLetters(text: string): boolean {
  return unspacedCharacter.test(text);
}
// Marks belong to the run: Thai vowel signs, Japanese voicing marks written separately.
const unspacedRun = new RegExp(`[${unspacedScripts}][${unspacedScripts}\\p{M}]*`, 'gu');
const wordEnd = /[\p{L}\p{N}\p{M}]$/u;
const wordStart = /^[\p{L}\p{N}\p{M}]/u;

// One locale whatever the user's: an index built by one host is searched by another. Made when first
// needed: a vault without such text never loads the word-break data.
let segmenter: Intl.Segmenter | null = null;

/**
 * The text with a `wordSeparator` between the words of every unspaced run, and between such a run and
 * letters of another script it touches (`Kasten中文` is two words). Other text is returned as it is.
 */
export function separateWords(text: string): string {
  if (!hasUnspacedLetters(text)) return text;
  return text.replace(unspacedRun, (run: string, offset: number) => {
    const words: string[] = [];
    segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
    for (const { segment } of segmenter.segment(run)) words.push(segment);
    const end = offset + run.length;
    const before = wordStart.test(run) && wordEnd.test(text.slice(Math.max(0, offset - 2), offset));
    const after = wordEnd.test(run) && wordStart.test(text.slice(end, end + 2));
    return `${before ? wordSeparator : ''}${words.join(wordSeparator)}${after ? wordSeparator : ''}`;
  });
}

/** A word of a query as the index holds it: itself, or the words of an unspaced run in it. */
export function wordTokens(word: string): string[] {
  const separated = separateWords(word);
  return separated === word ? [word] : separated.split(wordSeparator).filter((token) => token !== '');
}
