import { cpSync, readFileSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { indexFileFor } from '../../src/main/storage/index-database';
import type { IndexChange } from '../../src/shared/index-domain';
import { startIndexedApp } from '../support/indexed-app';
import { resourcesDir, tempWorkspace, waitFor } from '../support/temp-vault';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace(fixture?: string) {
  const ws = tempWorkspace(fixture);
  cleanups.push(ws.remove);
  return ws;
}

function sampleWorkspace() {
  const ws = workspace();
  cpSync(join(resourcesDir, 'sample-vault'), ws.vault, { recursive: true });
  return ws;
}

async function indexed(dataDir: string, vault: string, watch = false): Promise<KastenApp> {
  const app = await startIndexedApp(dataDir, vault, { watch });
  cleanups.push(() => app.dispose());
  return app;
}

function changes(app: KastenApp) {
  const seen: IndexChange[] = [];
  cleanups.push(
    app.events.subscribe((channel, payload) => {
      if (channel === 'index:changed') seen.push(payload as IndexChange);
    }),
  );
  return {
    seen,
    /** Waits for an index change touching `path`. */
    touching: (path: string) =>
      waitFor(() => seen.some((change) => change.paths.includes(path)), 5000, `an index change of ${path}`),
  };
}

describe('indexing the sample vault', () => {
  it('indexes every note in worker threads and finds the one broken link', async () => {
    const ws = sampleWorkspace();
    const app = await indexed(ws.dataDir, ws.vault);
    const { report } = app.index.status();
    expect(report).toMatchObject({ notes: 13, attachments: 1, broken: 1, ambiguous: 0, parsed: 13 });
    const broken = app.index.links({ broken: true });
    expect(broken).toEqual([
      expect.objectContaining({ source: 'concepts/Links between notes.md', raw: '[[Commonplace book]]' }),
    ]);
    const backlinks = app.index.backlinks('concepts/Atomic notes.md');
    expect(backlinks.length).toBeGreaterThan(2);
    expect(backlinks.every((link) => link.context.length > 0)).toBe(true);
    const hits = await app.index.search({ query: 'luhmann' });
    expect(hits[0]?.path).toBe('people/Niklas Luhmann.md');
    expect(hits[0]?.snippet).toContain('\u0002');
  });

  it('searches with title matches first, snippets for every hit, and folder and tag filters', async () => {
    const ws = sampleWorkspace();
    const app = await indexed(ws.dataDir, ws.vault);
    const all = await app.index.search({ query: 'notes' });
    expect(all.length).toBeGreaterThan(5);
    expect(all.map((hit) => hit.score)).toEqual([...all.map((hit) => hit.score)].sort((a, b) => b - a));
    expect(all.every((hit) => hit.snippet.includes('\u0002') && hit.title.length > 0)).toBe(true);
    expect(all.slice(0, 3).every((hit) => /notes/i.test(hit.title))).toBe(true);
    const inConcepts = await app.index.search({ query: 'notes', folder: 'concepts' });
    expect(inConcepts.length).toBeGreaterThan(0);
    expect(inConcepts.every((hit) => hit.path.startsWith('concepts/'))).toBe(true);
    expect(inConcepts.map((hit) => hit.path)).toEqual(
      all.filter((hit) => hit.path.startsWith('concepts/')).map((hit) => hit.path),
    );
    const pkm = (await app.index.search({ query: 'notes', tag: '#pkm' })).map((hit) => hit.path);
    expect(pkm.sort()).toEqual([
      'Zettelkasten method.md',
      'concepts/Atomic notes.md',
      'concepts/Permanent notes.md',
      'concepts/Progressive summarization.md',
    ]);
    expect(await app.index.search({ query: 'notes', limit: 2 })).toEqual(all.slice(0, 2));
    expect(await app.index.search({ query: 'zzzunmatched' })).toEqual([]);
  });

  it('re-parses nothing on a warm start, only what changed while closed, and drops deleted notes', async () => {
    const ws = sampleWorkspace();
    await (await indexed(ws.dataDir, ws.vault)).dispose();

    const warm = await indexed(ws.dataDir, ws.vault);
    expect(warm.index.status().report).toMatchObject({ notes: 13, parsed: 0 });
    await warm.dispose();

    writeFileSync(
      join(ws.vault, 'Commonplace book.md'),
      '# Commonplace book\n\nSee [[Zettelkasten method]].\n',
    );
    unlinkSync(join(ws.vault, 'concepts', 'Spaced repetition.md'));
    const touched = join(ws.vault, 'concepts', 'Atomic notes.md');
    utimesSync(touched, new Date(), new Date(Date.now() + 5000));
    const after = await indexed(ws.dataDir, ws.vault);
    // The new note is parsed, and the touched one re-read (same hash, so nothing rewritten).
    expect(after.index.status().report).toMatchObject({ notes: 13, parsed: 2, broken: 0 });
    expect((await after.index.search({ query: 'spaced' })).map((hit) => hit.path)).not.toContain(
      'concepts/Spaced repetition.md',
    );
  });

  it('rebuilds a corrupt index or one from another schema version, with a notice', async () => {
    const ws = sampleWorkspace();
    await (await indexed(ws.dataDir, ws.vault)).dispose();
    const file = indexFileFor(ws.dataDir, ws.vault);
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    const rebuilt = await indexed(ws.dataDir, ws.vault);
    expect(rebuilt.index.status().report).toMatchObject({ notes: 13, parsed: 13 });
    // The status bar's counts are the sizes of the health view's lists.
    const health = rebuilt.index.health();
    expect(rebuilt.index.issueCounts()).toEqual({
      broken: health.broken.length,
      aliasLinks: health.aliasLinks.length,
      ambiguous: health.ambiguous.length,
      brokenSubpaths: health.brokenSubpaths.length,
      warnings: health.warnings.length,
      notices: 1,
    });
    expect(health.broken).toHaveLength(1);
    expect(rebuilt.index.health().notices).toEqual([
      `The index ${file} was built by another version of Kasten (schema 99); it is being rebuilt.`,
    ]);
    await rebuilt.dispose();

    rmSync(`${file}-wal`, { force: true });
    writeFileSync(file, 'this is not a database'.repeat(100));
    const again = await indexed(ws.dataDir, ws.vault);
    expect(again.index.status().report).toMatchObject({ notes: 13, parsed: 13, broken: 1 });
    expect(again.index.health().notices).toEqual([
      `The index ${file} could not be read; it is being rebuilt from the vault.`,
    ]);
    await again.dispose();

    // Opened again, the index is sound: nothing to report.
    const sound = await indexed(ws.dataDir, ws.vault);
    expect(sound.index.health().notices).toEqual([]);
  });
});

describe('keeping the link graph exact while the vault changes', () => {
  it('resolves links when their target appears, breaks them when it goes, and follows renames', async () => {
    const ws = sampleWorkspace();
    const app = await indexed(ws.dataDir, ws.vault, true);
    const watch = changes(app);
    const missing = () =>
      app.index
        .outgoing('concepts/Links between notes.md')
        .find((link) => link.target === 'Commonplace book');

    expect(missing()).toMatchObject({ status: 'broken', resolved: null });
    writeFileSync(join(ws.vault, 'Commonplace book.md'), '# Commonplace book\n\n## Origins\n');
    await watch.touching('Commonplace book.md');
    expect(missing()).toMatchObject({ status: 'resolved', resolved: 'Commonplace book.md' });
    expect(app.index.backlinks('Commonplace book.md').map((link) => link.source)).toEqual([
      'concepts/Links between notes.md',
    ]);

    renameSync(join(ws.vault, 'Commonplace book.md'), join(ws.vault, 'people', 'Commonplace book.md'));
    // The watcher may report the add and the unlink in either order, even in separate batches.
    await waitFor(
      () =>
        watch.seen
          .flatMap((change) => change.renamed)
          .some(
            (rename) => rename.from === 'Commonplace book.md' && rename.to === 'people/Commonplace book.md',
          ),
      5000,
      'the rename',
    );
    expect(missing()).toMatchObject({ status: 'resolved', resolved: 'people/Commonplace book.md' });

    unlinkSync(join(ws.vault, 'people', 'Commonplace book.md'));
    await waitFor(() => missing()?.status === 'broken', 5000, 'the link to break again');
    expect(app.index.backlinks('people/Commonplace book.md')).toEqual([]);
  });

  it('catches up with notes edited after they were read and before the watcher could report them', async () => {
    const ws = sampleWorkspace();
    const app = await indexed(ws.dataDir, ws.vault);
    const watch = changes(app);
    const notes = app.index.titles().map((note) => note.path);
    const edited = 'concepts/Links between notes.md';
    const text = readFileSync(join(ws.vault, edited), 'utf8');
    // No watcher here: as for an edit made while the watcher's crawl had not reached the note's folder.
    writeFileSync(join(ws.vault, edited), `${text}\nNow about wombats and [[Commonplace book]].\n`);

    await app.index.catchUp(notes);
    expect(watch.seen.map((change) => change.paths)).toEqual([[edited]]);
    expect((await app.index.search({ query: 'wombats' })).map((hit) => hit.path)).toEqual([edited]);
    expect(app.index.outgoing(edited).filter((link) => link.target === 'Commonplace book')).toHaveLength(2);

    // Nothing else changed: nothing is read again.
    await app.index.catchUp(notes);
    expect(watch.seen).toHaveLength(1);
  });

  it('marks a heading link broken when the heading is edited away, and fixed when it returns', async () => {
    const ws = sampleWorkspace();
    const app = await indexed(ws.dataDir, ws.vault, true);
    const watch = changes(app);
    const file = join(ws.vault, 'concepts', 'Atomic notes.md');
    const heading = () =>
      app.index.backlinks('concepts/Atomic notes.md').find((link) => link.subpath === 'Why atomic');
    expect(heading()).toMatchObject({ status: 'resolved' });

    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('## Why atomic', '## Why small'));
    await watch.touching('concepts/Atomic notes.md');
    expect(heading()).toMatchObject({ status: 'broken-subpath', resolved: 'concepts/Atomic notes.md' });
    expect(heading()?.reason).toMatch(/Why atomic/);

    watch.seen.length = 0;
    writeFileSync(file, original);
    await watch.touching('concepts/Atomic notes.md');
    expect(heading()).toMatchObject({ status: 'resolved' });
  });
});
