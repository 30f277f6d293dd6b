/**
 * The language a note is written in, told by its commonest words: every language leans on a few dozen
 * short words (articles, prepositions, pronouns) that make up a quarter or more of any prose in it, and
 * these lists share none that is common in English. Only the languages whose words search stems are
 * named (see search-stems); a note in any other comes back null, as does a note too short to tell.
 */
export type StemmedLanguage = 'en';

const english = words(`the and of to that it for you with on this are be by or from your have not will if at
  which when can was has but they their there what how also its into than these should would about been were
  each other some then only any we our my he she his her them do does more use`);

/** The commonest words of Spanish, French, German, Portuguese, Italian and Dutch. */
const otherLanguages = [
  words(`el la los las del que y en un una es por con para se su sus al lo como más pero este esta puede
    también cuando si sin sobre son`),
  words(`le la les des du un une et est que qui dans pour pas sur avec vous ce cette il elle sont au aux ou
    plus par peut`),
  words(`der die das und ist den dem ein eine zu mit nicht von auf für sie es ich sich wird werden auch im
    dass oder wenn kann`),
  words(`os do da dos das em um uma que para com não por se na mais como ao ou você pode seu sua`),
  words(`il lo gli di del della che è un una per con non si nel nella sono come anche più può`),
  words(`de het een en van dat die op te met voor niet je zijn er aan ook als kan worden wordt`),
];

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

/** How many words are enough to tell a language, and how many are looked at. */
const fewestWords = 12;
const mostWords = 2000;
/** English when at least this share of the words are its common ones, and more than of any other list. */
const leastShare = 0.1;

const wordPattern = /[\p{L}\p{M}]+/gu;

/**
 * Each common word and the lists holding it, as bits (English the lowest): one lookup a word, where a
 * lookup in each of the seven lists was a twelfth of a note's parse.
 */
const listsOf = new Map<string, number>();
[english, ...otherLanguages].forEach((list, index) => {
  for (const word of list) listsOf.set(word, (listsOf.get(word) ?? 0) | (1 << index));
});

/** The stemmed language a text is in, or null (another language, or too little text to tell). */
export function noteLanguage(text: string): StemmedLanguage | null {
  let total = 0;
  let englishCount = 0;
  const otherCounts = otherLanguages.map(() => 0);
  for (const match of text.matchAll(wordPattern)) {
    const lists = listsOf.get(match[0].toLowerCase());
    total++;
    if (lists !== undefined) {
      if (lists & 1) englishCount++;
      for (let index = 0; index < otherCounts.length; index++)
        if (lists & (2 << index)) otherCounts[index]!++;
    }
    if (total >= mostWords) break;
  }
  if (total < fewestWords || englishCount < total * leastShare) return null;
  return otherCounts.every((count) => count < englishCount) ? 'en' : null;
}
