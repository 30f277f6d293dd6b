import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { TermStatistics } from '../../src/main/index/term-statistics';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace, waitFor } from '../support/temp-vault';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Fourteen notes: every one mentions the garden, twelve the kitchen (common words, left out of the
// query); only Compost and Bokashi share their rarer words.
const notes: Record<string, string> = {
  'Compost.md':
    '# Compost\n\nThe bokashi bucket ferments kitchen scraps before they go on the heap in the garden. Turn the heap monthly.\n',
  'Bokashi.md':
    '# Bokashi\n\nA bokashi bucket ferments scraps with bran; bury it in the garden or add it to the heap.\n',
  'Baking.md': '# Baking\n\nBread rises in a warm kitchen while I am out in the garden.\n',
  ...Object.fromEntries(
    Array.from({ length: 11 }, (_, index) => [
      `Diary ${index}.md`,
      `# Diary ${index}\n\nA day in the garden${index < 10 ? ' and the kitchen' : ''}: weather ${index}, mood ${index}.\n`,
    ]),
  ),
};

async function vaultApp(watch = false): Promise<{ app: KastenApp; vault: string }> {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  mkdirSync(ws.vault, { recursive: true });
  for (const [path, text] of Object.entries(notes)) writeFileSync(join(ws.vault, path), text);
  const app = await startIndexedApp(ws.dataDir, ws.vault, { watch });
  cleanups.push(() => app.dispose());
  return { app, vault: ws.vault };
}

describe('more like this', () => {
  it('finds the note sharing the rare words, not the ones sharing only common words', async () => {
    const { app } = await vaultApp();
    const similar = await app.index.similarByWords('Compost.md', 8);
    expect(similar[0]).toMatchObject({ path: 'Bokashi.md' });
    expect(similar[0]!.words).toEqual(expect.arrayContaining(['bokashi']));
    expect(similar.map((note) => note.path)).not.toContain('Baking.md');
  });

  it("reads the index's terms and how many notes hold them, again once the index changed", async () => {
    const { app, vault } = await vaultApp(true);
    const statistics = new TermStatistics(app.index.database());
    const counts = statistics.available()!;
    // Words as the index holds them: folded, not stemmed (stems have columns of their own).
    expect(counts.termsOf(['Running', 'notes', 'snake_case', 'Café', 'bokashi'])).toEqual([
      'running',
      'notes',
      null,
      'cafe',
      'bokashi',
    ]);
    expect(counts.notes).toBe(14);
    expect(counts.notesHolding(['garden', 'kitchen', 'bokashi', 'wombat'])).toEqual(
      new Map([
        ['garden', 14],
        ['kitchen', 12],
        ['bokashi', 2],
        ['wombat', 0],
      ]),
    );
    writeFileSync(join(vault, 'Wombats.md'), '# Wombats\n\nA wombat met the bokashi bucket.\n');
    await waitFor(() => app.index.note('Wombats.md') !== null, 5000, 'the new note indexed');
    expect(counts.notes).toBe(15);
    expect(counts.notesHolding(['bokashi', 'wombat'])).toEqual(
      new Map([
        ['bokashi', 3],
        ['wombat', 1],
      ]),
    );
  });
});
