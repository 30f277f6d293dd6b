/**
 * Arabic writes the conjunctions و and ف, the prepositions ب, ك and ل and the article ال onto the word
 * they belong to: water, ماء, is written الماء, بالماء, وماء. A search for a word looks for it with each
 * of these in front (and a word typed with its article is looked for without it too); the index keeps
 * words as they are written, since which first letters are a proclitic cannot be told from the text.
 */

const arabicWord = /^[\p{scx=Arab}\p{M}]+$/u;

/** Every proclitic sequence: conjunction, preposition, article, each optional (ل + ال is written لل). */
const proclitics = (() => {
  const forms = new Set<string>();
  for (const conjunction of ['', 'و', 'ف'])
    for (const preposition of ['', 'ب', 'ك', 'ل'])
      for (const article of ['', 'ال'])
        forms.add(`${conjunction}${preposition}${article}`.replace('لال', 'لل'));
  return [...forms].sort((a, b) => b.length - a.length);
})();
const withArticle = proclitics.filter((form) => form.endsWith('ال') || form.endsWith('لل'));

/** Whether a word is written in the Arabic script. */
export function isArabicWord(word: string): boolean {
  return arabicWord.test(word);
}

/** The word without an article (and what precedes it) when at least three letters remain. */
export function withoutArticle(word: string): string {
  const form = withArticle.find((prefix) => word.startsWith(prefix) && word.length - prefix.length >= 3);
  return form ? word.slice(form.length) : word;
}

/** The ways a word can be written with proclitics, itself first. */
export function procliticForms(word: string): string[] {
  const stem = withoutArticle(word);
  return [...proclitics].reverse().map((form) => form + stem);
}

/** Whether `written` is `term` (or starts with it) with proclitics in front. */
export function startsWithProcliticForm(written: string, term: string): boolean {
  // Most words are not Arabic: one look at the first letter (the Arabic block) answers for them.
  const first = written.charCodeAt(0);
  if (first < 0x0600 || first > 0x06ff) return false;
  return proclitics.some(
    (form) => form !== '' && written.startsWith(form) && written.startsWith(term, form.length),
  );
}
