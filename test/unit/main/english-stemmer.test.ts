import { describe, expect, it } from 'vitest';
import { englishStem } from '../../../src/main/index/english-stemmer';

/** Words and their stems from the Snowball project's English sample vocabulary. */
const vocabulary: Record<string, string> = {
  consign: 'consign',
  consigned: 'consign',
  consigning: 'consign',
  consignment: 'consign',
  consistency: 'consist',
  consistently: 'consist',
  consolation: 'consol',
  consolatory: 'consolatori',
  consoled: 'consol',
  consolidating: 'consolid',
  consolingly: 'consol',
  consonant: 'conson',
  conspicuously: 'conspicu',
  conspiracy: 'conspiraci',
  conspirators: 'conspir',
  constable: 'constabl',
  constancy: 'constanc',
  knackeries: 'knackeri',
  kneaded: 'knead',
  kneeling: 'kneel',
  knees: 'knee',
  knightly: 'knight',
  knitting: 'knit',
  knives: 'knive',
  knocker: 'knocker',
  knopp: 'knopp',
  generously: 'generous',
  generation: 'generat',
  hopping: 'hop',
  hoping: 'hope',
  luxuriating: 'luxuri',
  cries: 'cri',
  ties: 'tie',
  gas: 'gas',
  gaps: 'gap',
  kiwis: 'kiwi',
  skies: 'sky',
  news: 'news',
  added: 'add',
  cry: 'cri',
  say: 'say',
  youth: 'youth',
};

describe('englishStem', () => {
  it('stems as the Snowball English algorithm does', () => {
    const stems = Object.fromEntries(Object.keys(vocabulary).map((word) => [word, englishStem(word)]));
    expect(stems).toEqual(vocabulary);
  });

  it('brings the forms of a word to one stem', () => {
    expect(new Set(['note', 'notes', 'noted'].map(englishStem))).toEqual(new Set(['note']));
    expect(new Set(['link', 'links', 'linked', 'linking'].map(englishStem))).toEqual(new Set(['link']));
  });

  it('leaves words of other letters, and words of one or two letters, as they are', () => {
    for (const word of ['ок', 'заметки', 'ノート', 'mp3s', 'is', 'a']) expect(englishStem(word)).toBe(word);
  });
});
