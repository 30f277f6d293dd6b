import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startIndexedApp } from '../support/indexed-app';
import { resourcesDir, tempWorkspace } from '../support/temp-vault';
import { runAppTool } from '../support/tool-calls';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The sample vault, indexed: thirteen notes about note-taking. */
async function sampleApp(): Promise<KastenApp> {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  cpSync(join(resourcesDir, 'sample-vault'), ws.vault, { recursive: true });
  const app = await startIndexedApp(ws.dataDir, ws.vault);
  cleanups.push(() => app.dispose());
  return app;
}

describe('a question typed as a search', () => {
  it('finds the note that answers it through the some-words ranker, its words marked in the snippet', async () => {
    const app = await sampleApp();
    // No note holds every word ("how", "do", "I"…): all-words matching alone found nothing.
    const hits = await app.index.search({ query: 'how do I link two notes together?', limit: 5 });
    expect(hits[0]).toMatchObject({ path: 'concepts/Links between notes.md', ranker: 'some-words' });
    expect(hits[0]!.snippet.toLowerCase()).toContain('\u0002link');
    expect(hits[0]!.snippet).toContain('\u0002together\u0003');
    expect(hits.every((hit) => hit.ranker === 'some-words')).toBe(true);
  });

  it('lists the notes holding every word first and the notes holding some after them, each once', async () => {
    const app = await sampleApp();
    const hits = await app.index.search({ query: 'luhmann index cards' });
    expect(hits[0]).toMatchObject({ path: 'people/Niklas Luhmann.md', ranker: 'all-words' });
    const rankers = hits.map((hit) => hit.ranker);
    expect(rankers.slice(rankers.indexOf('some-words')).every((ranker) => ranker === 'some-words')).toBe(
      true,
    );
    expect(rankers).toContain('some-words');
    expect(new Set(hits.map((hit) => hit.path)).size).toBe(hits.length);
  });

  it('adds nothing when five notes or more hold every word, and applies the filters to the some-words hits', async () => {
    const app = await sampleApp();
    const many = await app.index.search({ query: 'permanent notes' });
    expect(many.length).toBeGreaterThanOrEqual(5);
    expect(many.every((hit) => hit.ranker === 'all-words')).toBe(true);
    const inPeople = await app.index.search({ query: 'how did luhmann number his cards', folder: 'people' });
    expect(inPeople.map((hit) => [hit.path, hit.ranker])).toEqual([
      ['people/Niklas Luhmann.md', 'some-words'],
    ]);
  });

  it('gives the search_notes tool the some-words hits too, marked as such', async () => {
    const app = await sampleApp();
    const outcome = await runAppTool(app, 'search_notes', {
      query: 'how do I link two notes together?',
    });
    const documents = JSON.parse(outcome.output) as { path: string; matched: string }[];
    expect(documents[0]).toMatchObject({ path: 'concepts/Links between notes.md', matched: 'some words' });
    expect(outcome.notes[0]).toMatchObject({ path: 'concepts/Links between notes.md', kind: 'search-hit' });
  });

  it('finds the notes holding every word, stop words and all, and marks them, when few hold the rarer words', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    mkdirSync(ws.vault, { recursive: true });
    writeFileSync(join(ws.vault, 'Burrows.md'), '# Burrows\n\nThe wombat and the badger dig.\n');
    writeFileSync(join(ws.vault, 'Sett.md'), '# Sett\n\nA badger sett; no wombat near.\n');
    writeFileSync(join(ws.vault, 'Other.md'), '# Other\n\nThe weather is fine.\n');
    const app = await startIndexedApp(ws.dataDir, ws.vault);
    cleanups.push(() => app.dispose());
    const hits = await app.index.search({ query: 'the wombat and the badger' });
    expect(hits.map((hit) => [hit.path, hit.ranker])).toEqual([
      ['Burrows.md', 'all-words'],
      ['Sett.md', 'some-words'],
    ]);
    expect(hits[0]!.snippet).toBe(
      'Burrows \u0002The\u0003 \u0002wombat\u0003 \u0002and\u0003 \u0002the\u0003 \u0002badger\u0003 dig.',
    );
    const none = await app.index.search({ query: 'is the platypus a badger' });
    expect(none.every((hit) => hit.ranker === 'some-words')).toBe(true);
  });
});
