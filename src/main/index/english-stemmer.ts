/**
 * The English Snowball stemmer ("Porter2", snowballstem.org/algorithms/english), for words as search
 * folds them (lower case, Latin accents dropped). Words of other letters than a–z come back as they
 * are: the algorithm knows English endings only.
 */

const vowels = new Set('aeiouy');
const validLiEndings = new Set('cdeghkmnrt');
const doubles = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
const englishLetters = /^[a-z]+$/;

/** Words the algorithm would stem wrongly, and what they stem to (themselves when invariant). */
const exceptions = new Map(
  Object.entries({
    skis: 'ski',
    skies: 'sky',
    dying: 'die',
    lying: 'lie',
    tying: 'tie',
    idly: 'idl',
    gently: 'gentl',
    ugly: 'ugli',
    early: 'earli',
    only: 'onli',
    singly: 'singl',
    sky: 'sky',
    news: 'news',
    howe: 'howe',
    atlas: 'atlas',
    cosmos: 'cosmos',
    bias: 'bias',
    andes: 'andes',
  }),
);
/** Words left as they are once a plural `s` is gone (not `-ing` or `-ed` forms). */
const invariantAfterPlural = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'evening',
  'proceed',
  'exceed',
  'succeed',
]);

const step2: [string, string][] = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];
const step3: [string, string][] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];
const step4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
];

const isVowel = (letter: string | undefined) => letter !== undefined && vowels.has(letter);

/** The English stem of a folded word. */
export function englishStem(word: string): string {
  const exception = exceptions.get(word);
  if (exception !== undefined) return exception;
  if (word.length < 3 || !englishLetters.test(word)) return word;
  // A `y` that begins the word or follows a vowel is a consonant: `Y` until the end.
  let w = '';
  for (let index = 0; index < word.length; index++) {
    const letter = word[index]!;
    w += letter === 'y' && (index === 0 || isVowel(w[index - 1])) ? 'Y' : letter;
  }
  const { r1, r2 } = regions(w);
  w = pluralStep(w);
  if (!invariantAfterPlural.has(w)) {
    w = endingStep(w, r1);
    // A final y after a consonant that is not the first letter is an i: `cry` → `cri`.
    if (w.length > 2 && /[yY]$/.test(w) && !isVowel(w[w.length - 2])) w = `${w.slice(0, -1)}i`;
    w = replaceIn(w, step2, r1, (stem, suffix) =>
      suffix === 'ogi' ? stem.endsWith('l') : suffix === 'li' ? validLiEndings.has(stem.at(-1)!) : true,
    );
    w = replaceIn(w, step3, r1, (stem, suffix) => suffix !== 'ative' || stem.length >= r2);
    w = suffixStep(w, r2);
    w = finalStep(w, r1, r2);
  }
  return w.replaceAll('Y', 'y');
}

/** Where R1 and R2 begin: after the first non-vowel that follows a vowel, and again after that. */
function regions(w: string): { r1: number; r2: number } {
  const after = (start: number) => {
    for (let index = start + 1; index < w.length; index++) {
      if (!isVowel(w[index]) && isVowel(w[index - 1])) return index + 1;
    }
    return w.length;
  };
  const prefix = ['gener', 'commun', 'arsen'].find((start) => w.startsWith(start));
  const r1 = prefix ? prefix.length : after(0);
  return { r1, r2: after(r1) };
}

/** Whether `w` ends in a short syllable. */
function endsShort(w: string): boolean {
  const [a, b, c] = [w.at(-3), w.at(-2), w.at(-1)];
  if (c === undefined || isVowel(c) || !isVowel(b)) return false;
  if (a === undefined) return true;
  return !isVowel(a) && c !== 'w' && c !== 'x' && c !== 'Y';
}

/** Step 1a: plurals. */
function pluralStep(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ied') || w.endsWith('ies')) return w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  if (w.endsWith('us') || w.endsWith('ss')) return w;
  // A plural s goes when a vowel comes before the letter before it: `gaps` → `gap`, but `gas` stays.
  if (w.endsWith('s') && [...w.slice(0, -2)].some((letter) => isVowel(letter))) return w.slice(0, -1);
  return w;
}

/** Step 1b: `-eed`, `-ed`, `-ing` and their `-ly` forms. */
function endingStep(w: string, r1: number): string {
  for (const suffix of ['eedly', 'eed']) {
    if (w.endsWith(suffix)) return w.length - suffix.length >= r1 ? `${w.slice(0, -suffix.length)}ee` : w;
  }
  const suffix = ['ingly', 'edly', 'ing', 'ed'].find((ending) => w.endsWith(ending));
  if (!suffix) return w;
  const stem = w.slice(0, -suffix.length);
  if (![...stem].some((letter) => isVowel(letter))) return w;
  if (/(at|bl|iz)$/.test(stem)) return `${stem}e`;
  if (doubles.has(stem.slice(-2))) {
    // `add`, `egg`, `err`: a double after a first vowel stays.
    return stem.length === 3 && 'aeo'.includes(stem[0]!) ? stem : stem.slice(0, -1);
  }
  return stem.length === r1 && endsShort(stem) ? `${stem}e` : stem;
}

/** Replaces the longest of `suffixes` that ends `w`, when it lies in the region from `from` and `allowed`. */
function replaceIn(
  w: string,
  suffixes: readonly [string, string][],
  from: number,
  allowed: (stem: string, suffix: string) => boolean,
): string {
  const found = suffixes.find(([suffix]) => w.endsWith(suffix));
  if (!found) return w;
  const [suffix, replacement] = found;
  const stem = w.slice(0, -suffix.length);
  return stem.length >= from && allowed(stem, suffix) ? stem + replacement : w;
}

/** Step 4: suffixes in R2. */
function suffixStep(w: string, r2: number): string {
  const suffix = step4.find((ending) => w.endsWith(ending));
  if (!suffix) return w;
  const stem = w.slice(0, -suffix.length);
  if (stem.length < r2) return w;
  if (suffix === 'ion' && !/[st]$/.test(stem)) return w;
  return stem;
}

/** Step 5: a final e, and the second of a final ll. */
function finalStep(w: string, r1: number, r2: number): string {
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    if (stem.length >= r2 || (stem.length >= r1 && !endsShort(stem))) return stem;
    return w;
  }
  if (w.endsWith('ll') && w.length - 1 >= r2) return w.slice(0, -1);
  return w;
}
