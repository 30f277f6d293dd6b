import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppEvents } from '../../src/main/app-events';
import { createIndexWorkers, type IndexWorkers } from '../../src/main/index/index-workers';
import { VaultIndex } from '../../src/main/index/vault-index';
import { scanVault } from '../../src/main/vault/vault-files';
import type { SearchRequest } from '../../src/shared/index-domain';
import { builtIndexWorker } from '../support/built-worker';
import { tempWorkspace } from '../support/temp-vault';

/** Enough notes for a search to be shared (see minNotesToShare in note-search.ts). */
const notes = 2400;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The built index workers, with a switch for sharing searches and a count of the shares they ranked. */
function switchableWorkers() {
  const real = createIndexWorkers(builtIndexWorker);
  const state = { share: true, fail: false, ranked: 0 };
  const workers: IndexWorkers = {
    parse: (task, signal) => real.parse(task, signal),
    get rankers() {
      return state.share ? real.rankers : 0;
    },
    rank: (task) => {
      state.ranked++;
      return state.fail ? Promise.reject(new Error('worker gone')) : real.rank(task);
    },
    dispose: () => real.dispose(),
  };
  return { workers, state };
}

describe('a search ranked in shares by the index workers', () => {
  it('gives exactly the ranking of one query on the main thread, ties and filters included', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    // Seven groups of notes with equal scores for "quokka" (which come first is decided by the
    // tie-break), each note with a word of its own, in three folders and under three tags.
    const folders = ['north', 'south', 'west'];
    const names: string[] = [];
    for (let note = 0; note < notes; note++) {
      const name = `quokka ${String(note).padStart(4, '0')}`;
      const folder = join(ws.vault, folders[note % 3]!);
      mkdirSync(folder, { recursive: true });
      const body = `${'A quokka sits. '.repeat((note % 7) + 1)}\nOwn word: own${name.slice(-4)}. #group/${note % 3}\n`;
      writeFileSync(join(folder, `${name}.md`), body);
      names.push(`${folders[note % 3]}/${name}.md`);
    }
    const { workers, state } = switchableWorkers();
    cleanups.push(() => workers.dispose());
    const index = new VaultIndex({
      dataDir: ws.dataDir,
      events: new AppEvents(),
      workers,
      onNotice: () => {},
    });
    cleanups.push(() => index.close());
    await index.open(ws.vault, await scanVault(ws.vault));

    const requests: SearchRequest[] = [
      { query: 'quokka' },
      { query: 'quokka', limit: 200 },
      { query: 'sits quokka', limit: 1 },
      { query: 'quokka', folder: 'south' },
      { query: 'quokka', tag: '#group/2', limit: 50 },
      { query: 'zzzunmatched' },
      // A word slow to match ("a"*) and too many notes holding the others: one worker ranks them all.
      { query: 'a quokka sits', limit: 30 },
    ];
    const searchAll = async () => {
      const results = [];
      for (const request of requests) results.push(await index.search(request));
      return results;
    };
    state.share = false;
    const alone = await searchAll();
    expect(state.ranked).toBe(0);
    state.share = true;
    const shared = await searchAll();
    // Every request but the unmatched one, which a count of its matches ends before any ranking.
    expect(state.ranked).toBeGreaterThanOrEqual(requests.length - 1);
    expect(shared).toEqual(alone);
    expect(alone.map((hits) => hits.length)).toEqual([20, 200, 1, 20, 50, 0, 30]);
    expect(alone[3]!.every((hit) => hit.path.startsWith('south/'))).toBe(true);

    // Every note is found once: the shares neither overlap nor leave a note out.
    for (const [note, path] of names.entries()) {
      const hits = await index.search({ query: `own${String(note).padStart(4, '0')}` });
      expect(hits.map((hit) => hit.path)).toEqual([path]);
    }

    // A worker that fails leaves its share to the main thread.
    state.fail = true;
    expect(await searchAll()).toEqual(alone);
  });
});
