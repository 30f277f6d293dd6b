import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { SearchResults } from '../../src/shared/embedding-domain';
import { createIndexedApp } from '../support/indexed-app';
import { writeSyntheticVault } from '../support/synthetic-vault';
import { tempWorkspace } from '../support/temp-vault';

let notes = 0;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The app on a synthetic vault, not started: a first index of it runs on start. */
function unindexedApp(): KastenApp {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  notes = writeSyntheticVault(ws.vault, { notes: 2500, seed: 11 }).notes;
  const app = createIndexedApp(ws.dataDir, ws.vault);
  cleanups.push(() => app.dispose());
  return app;
}

describe('searching while a first index runs', () => {
  it('says the results are partial, with how much is read, until the index is whole', async () => {
    const app = unindexedApp();
    let during: Promise<SearchResults> | null = null;
    app.events.on('index:progress', (progress) => {
      if (!during && progress.state === 'indexing' && progress.done > 0)
        during = app.handlers['search:results']({ query: 'note' });
    });
    await app.start();
    await app.index.whenIdle();
    const partial = (await during!).partial;
    expect(partial).toMatchObject({ total: notes, cancelled: false });
    expect(partial!.read).toBeGreaterThan(0);
    expect(partial!.read).toBeLessThanOrEqual(notes);
    const after = await app.handlers['search:results']({ query: 'note' });
    expect(after.partial).toBeNull();
    expect(after.total).toBeGreaterThan(0);
  });

  it('says the index is partial after its first pass was cancelled', async () => {
    const app = unindexedApp();
    let cancelled = false;
    app.events.on('index:progress', (progress) => {
      if (!cancelled && progress.state === 'indexing' && progress.done > 0) {
        cancelled = true;
        app.index.cancel();
      }
    });
    await app.start().catch(() => {});
    await app.index.whenIdle();
    const results = await app.handlers['search:results']({ query: 'note' });
    expect(results.partial).toMatchObject({ total: notes, cancelled: true });
    expect(results.partial!.read).toBeLessThan(notes);
  });
});
