import { createRequire } from 'node:module';
import { isStopWord } from './stop-words';
import { hasUnspacedLetters } from './word-segments';

/**
 * Stop words of every language stopwords-iso lists (58, among them those the word segmenter cuts:
 * Chinese, Japanese, Thai; it has no list for Lao, Khmer or Burmese), applied by script. A word in a
 * script of its own (Han, kana, Hangul, Thai, Arabic, Cyrillic, Devanagari…) is checked against the lists
 * of that script together: their languages rarely share a spelling that is a content word in one. Latin
 * script is shared by 38 of the lists, and one language's stop word is another's topic (Danish `tag`,
 * Dutch `word`, Lithuanian `link`): a Latin word is checked against the list of the language the text is
 * written in, told by which list its words hit most (English when none does), and the English list
 * search uses.
 */

/** Scripts with a stop list; a word's script is its first letter's. */
const scripts = [
  'Latin',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
  'Arabic',
  'Cyrillic',
  'Devanagari',
  'Bengali',
  'Gujarati',
  'Greek',
  'Hebrew',
  'Armenian',
] as const;
type Script = (typeof scripts)[number];
const scriptTests = scripts.map((script) => [script, new RegExp(`^\\p{Script=${script}}`, 'u')] as const);
const firstLetter = /\p{L}/u;

function scriptOf(word: string): Script | null {
  const letter = firstLetter.exec(word)?.[0];
  if (!letter) return null;
  return scriptTests.find(([, test]) => test.test(letter))?.[0] ?? null;
}

/**
 * Words of the segmented scripts the lists lack. Their English has "use", "used", "using"; their Chinese
 * lacks 使用 ("use"), which a help text holds in every other sentence.
 */
const missingFromLists: readonly string[] = ['使用'];

/** As the lists are written: Thai's in NFKC (ทํา, not ทำ), all in lower case. */
const normalized = (word: string) => word.normalize('NFKC').toLocaleLowerCase();

interface Lists {
  /** The words of every non-Latin list, by their own script. */
  byScript: Map<Script, Set<string>>;
  /** The Latin lists, by language. */
  latin: Map<string, Set<string>>;
  /** For each Latin stop word, the languages listing it (to tell the language of a text). */
  latinLanguages: Map<string, string[]>;
}

let lists: Lists | null = null;

/** Built once, when related notes are first asked for: a vault never asked about never loads the lists. */
function loadLists(): Lists {
  // Required rather than imported: the bundler would drop the JSON import's attribute Node asks for.
  const isoStopWords = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>;
  const byScript = new Map<Script, Set<string>>();
  const latin = new Map<string, Set<string>>();
  const latinLanguages = new Map<string, string[]>();
  for (const [language, words] of Object.entries(isoStopWords)) {
    const all = words.map(normalized);
    const latinWords = all.filter((word) => scriptOf(word) === 'Latin');
    if (latinWords.length > all.length / 2) {
      latin.set(language, new Set(latinWords));
      for (const word of latinWords)
        latinLanguages.set(word, [...(latinLanguages.get(word) ?? []), language]);
      continue;
    }
    for (const word of all) {
      const script = scriptOf(word);
      if (script === null || script === 'Latin') continue;
      const set = byScript.get(script) ?? new Set<string>();
      set.add(word);
      byScript.set(script, set);
    }
  }
  for (const word of missingFromLists) byScript.get(scriptOf(word)!)?.add(word);
  return { byScript, latin, latinLanguages };
}

const latinWord = /\p{Script=Latin}+/gu;

/** The Latin-script language `text` is written in: the one whose stop words it holds most, else English. */
function latinLanguageOf(text: string, { latinLanguages }: Lists): string {
  const hits = new Map<string, number>();
  for (const [word] of text.matchAll(latinWord)) {
    for (const language of latinLanguages.get(normalized(word)) ?? []) {
      hits.set(language, (hits.get(language) ?? 0) + 1);
    }
  }
  let best = 'en';
  for (const [language, count] of hits) if (count > (hits.get(best) ?? 0)) best = language;
  return best;
}

/** Whether a word of `text` is a stop word in its language (see the module's comment). */
export function stopWordsOf(text: string): (word: string) => boolean {
  lists ??= loadLists();
  const { byScript, latin } = lists;
  const latinStops = latin.get(latinLanguageOf(text, lists)) ?? new Set<string>();
  return (word) => {
    const script = scriptOf(word);
    if (script === null) return false;
    const key = normalized(word);
    if (script === 'Latin') return latinStops.has(key) || isStopWord(key);
    const words = byScript.get(script);
    return words !== undefined && (words.has(key) || madeOfStopWords(key, words));
  };
}

const longestJoined = 4;

/**
 * Whether a word of an unspaced script is stop words written together, as the segmenter may leave them
 * (也可以 of 也 + 可以): the stop words of its script cover it end to end.
 */
function madeOfStopWords(word: string, words: Set<string>): boolean {
  const characters = [...word];
  if (characters.length < 2 || !hasUnspacedLetters(word)) return false;
  // covered[i]: the first i characters are stop words end to end.
  const covered = [true, ...characters.map(() => false)];
  for (let end = 1; end <= characters.length; end++) {
    for (let start = Math.max(0, end - longestJoined); start < end && !covered[end]; start++) {
      covered[end] = covered[start]! && words.has(characters.slice(start, end).join(''));
    }
  }
  return covered[characters.length]!;
}
