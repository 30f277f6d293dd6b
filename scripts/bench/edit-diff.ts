// An edit as the model proposes it, on a 50 KB note: finding the passage (or the section), splicing the
// bytes and the word diff the approval card shows (jsdiff's diffWordsWithSpace, lines aligned first).
// The diff dominates, and it grows with how much of the text changed.
import { registerSourceHooks } from './source-hooks.ts';

export interface EditFigures {
  noteBytes: number;
  cases: { name: string; ms: number[] }[];
}

const vocabulary = (
  'note idea link card index folder structure method slip box thought writing reading source quote claim ' +
  'argument question answer context summary permanent fleeting literature atomic review tag backlink graph'
).split(' ');

/** Paragraphs of 13 words from the vocabulary, `seed` choosing the words, until `bytes` long. */
function prose(seed: number, bytes: number): string {
  let text = '';
  for (let word = 0; text.length < bytes; word++) {
    text += vocabulary[(word * seed + (word >> 3)) % vocabulary.length];
    text += word % 13 === 12 ? '.\n\n' : ' ';
  }
  return text.trimEnd();
}

export async function measureEditDiff(runs = Number(process.env.BENCH_EDIT_RUNS ?? 7)): Promise<EditFigures> {
  registerSourceHooks();
  const { placeEdit } = await import('../../src/main/vault/edit-placement.ts');
  const body = prose(7, 50_000);
  const note = Buffer.from(`---\ntags: [bench]\n---\n# Long note\n\n${body}\n`);
  const words = body.split(' ');
  // A word near the middle, made unique so that the passage occurs once.
  const middle = Math.floor(words.length / 2);
  const unique = words.map((word, index) => (index === middle ? `${word}-unique` : word));
  const uniqueNote = Buffer.from(`---\ntags: [bench]\n---\n# Long note\n\n${unique.join(' ')}\n`);
  const cases: { name: string; run: () => unknown }[] = [
    {
      name: 'one passage, one word changed',
      run: () => placeEdit(uniqueNote, 'Long.md', { passage: `${words[middle]}-unique` }, 'changed'),
    },
    {
      name: 'whole section, every 40th word changed',
      run: () => placeEdit(note, 'Long.md', { heading: 'Long note' }, rewritten(words, 40)),
    },
    {
      name: 'whole section, every 5th word changed',
      run: () => placeEdit(note, 'Long.md', { heading: 'Long note' }, rewritten(words, 5)),
    },
    {
      name: 'whole section, other text entirely',
      run: () => placeEdit(note, 'Long.md', { heading: 'Long note' }, prose(11, 50_000)),
    },
  ];
  return {
    noteBytes: note.length,
    cases: cases.map(({ name, run }) => {
      run();
      const ms: number[] = [];
      for (let index = 0; index < runs; index++) {
        const start = performance.now();
        run();
        ms.push(performance.now() - start);
      }
      return { name, ms };
    }),
  };
}

function rewritten(words: string[], every: number): string {
  return words.map((word, index) => (index % every === 0 ? word.toUpperCase() : word)).join(' ');
}
