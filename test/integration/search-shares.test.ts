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
  const state = { share: true, fail: false, ranked: 0, asked: [] as string[] };
  const workers: IndexWorkers = {
    parse: (task, signal) => real.parse(task, signal),
    get rankers() {
      return state.share ? real.rankers : 0;
    },
    rank: (task) => {
      state.ranked++;
      state.asked.push(String(task.parameters[0]));
      return state.fail ? Promise.reject(new Error('worker gone')) : real.rank(task);
    },
    dispose: () => real.dispose(),
  };
  return { workers, state };
}

/** A vault of `notes` notes about quokkas, indexed with switchable workers; every 400th eats berries. */
async function quokkaVault() {
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
    const body = `${'A quokka sits. '.repeat((note % 7) + 1)}${note % 400 === 0 ? 'It eats berries. ' : ''}\nOwn word: own${name.slice(-4)}. #group/${note % 3}\n`;
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

  return { index, names, state };
}

describe('a search ranked in shares by the index workers', () => {
  it('gives exactly the ranking of one query on the main thread, ties and filters included', async () => {
    const { index, names, state } = await quokkaVault();

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

  it('ranks the some-words candidates of a question on the workers while the looser tiers run here', async () => {
    const { index, state } = await quokkaVault();
    // No note holds every word of the question, so its hits are the notes holding some of them.
    const question = { query: 'where does a quokka eat berries?' };
    // No note holds these words whole; as prefixes, every note does (the candidates go unread).
    const prefixes = { query: 'quok sit' };
    state.share = false;
    const alone = [await index.search(question), await index.search(prefixes)];
    state.share = true;
    state.asked = [];
    expect(await index.search(question)).toEqual(alone[0]);
    // The whole words' tier is shared, then the workers rank their share of the some-words candidates,
    // and the prefix and stem tiers are ranked here meanwhile: two tasks, the second the some-words one.
    expect(state.asked).toHaveLength(2);
    expect(state.asked[1]).toContain('berries');
    expect(state.asked[1]).toContain(' OR ');
    expect(alone[0]!.slice(0, 6).map((hit) => hit.ranker)).toEqual(Array(6).fill('some-words'));
    expect(alone[0]![0]!.snippet).toContain('berries');

    state.asked = [];
    expect(await index.search(prefixes)).toEqual(alone[1]);
    expect(state.asked.some((expression) => expression.includes(' OR '))).toBe(true);
    expect(alone[1]).toHaveLength(20);
    expect(alone[1]!.every((hit) => hit.ranker === 'all-words')).toBe(true);

    // A worker that fails leaves its share of the candidates to the main thread, read or not.
    state.fail = true;
    expect([await index.search(question), await index.search(prefixes)]).toEqual(alone);
  });
});
