import {
  cpSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { IndexStore } from '../../src/main/index/index-store';
import { LinkResolutions, storedResolution } from '../../src/main/index/link-resolutions';
import { indexFileFor } from '../../src/main/storage/index-database';
import { VaultLinkResolver, linkKey } from '../../src/shared/links/link-resolver';
import type { IndexChange, IndexProgress } from '../../src/shared/index-domain';
import { createApp } from '../../src/main/app';
import { AppEvents } from '../../src/main/app-events';
import { createParserPool, type ParserPool } from '../../src/main/index/parser-pool';
import { VaultIndex } from '../../src/main/index/vault-index';
import { scanVault } from '../../src/main/vault/vault-files';
import { builtParserWorker } from '../support/built-worker';
import { dumpIndex } from '../support/index-dump';
import { startIndexedApp } from '../support/indexed-app';
import { writeSyntheticVault } from '../support/synthetic-vault';
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
  const app = await startIndexedApp(dataDir, vault, watch);
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
    const hits = app.index.search({ query: 'luhmann' });
    expect(hits[0]?.path).toBe('people/Niklas Luhmann.md');
    expect(hits[0]?.snippet).toContain('\u0002');
  });

  it('searches with title matches first, snippets for every hit, and folder and tag filters', async () => {
    const ws = sampleWorkspace();
    const app = await indexed(ws.dataDir, ws.vault);
    const all = app.index.search({ query: 'notes' });
    expect(all.length).toBeGreaterThan(5);
    expect(all.map((hit) => hit.score)).toEqual([...all.map((hit) => hit.score)].sort((a, b) => b - a));
    expect(all.every((hit) => hit.snippet.includes('\u0002') && hit.title.length > 0)).toBe(true);
    expect(all.slice(0, 3).every((hit) => /notes/i.test(hit.title))).toBe(true);
    const inConcepts = app.index.search({ query: 'notes', folder: 'concepts' });
    expect(inConcepts.length).toBeGreaterThan(0);
    expect(inConcepts.every((hit) => hit.path.startsWith('concepts/'))).toBe(true);
    expect(inConcepts.map((hit) => hit.path)).toEqual(
      all.filter((hit) => hit.path.startsWith('concepts/')).map((hit) => hit.path),
    );
    const pkm = app.index.search({ query: 'notes', tag: '#pkm' }).map((hit) => hit.path);
    expect(pkm.sort()).toEqual([
      'Zettelkasten method.md',
      'concepts/Atomic notes.md',
      'concepts/Permanent notes.md',
      'concepts/Progressive summarization.md',
    ]);
    expect(app.index.search({ query: 'notes', limit: 2 })).toEqual(all.slice(0, 2));
    expect(app.index.search({ query: 'zzzunmatched' })).toEqual([]);
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
    expect(after.index.search({ query: 'spaced' }).map((hit) => hit.path)).not.toContain(
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
    await rebuilt.dispose();

    rmSync(`${file}-wal`, { force: true });
    writeFileSync(file, 'this is not a database'.repeat(100));
    const again = await indexed(ws.dataDir, ws.vault);
    expect(again.index.status().report).toMatchObject({ notes: 13, parsed: 13, broken: 1 });
  });
});

describe('a cold index', () => {
  it('resolves every link as a resolver that knows the whole vault does, and builds its lookup indexes', async () => {
    const ws = workspace();
    writeSyntheticVault(join(ws.vault, 'synthetic'), { notes: 400, seed: 7 });
    // Early notes link to aliases, headings and blocks of notes parsed in later batches, and to an alias
    // two late notes share: what a note announced by name only cannot answer at write time.
    for (let index = 0; index < 300; index++) {
      const other = String(299 - index).padStart(3, '0');
      writeFileSync(
        join(ws.vault, `n${String(index).padStart(3, '0')}.md`),
        [
          `---\naliases: [Alias ${String(index).padStart(3, '0')}${index >= 290 ? ', Shared alias' : ''}]\n---`,
          `# Heading ${String(index).padStart(3, '0')}`,
          `A paragraph. ^block${index}`,
          `[[Alias ${other}]] [[n${other}#Heading ${other}]] [[n${other}#^block${299 - index}]]`,
          `[[n${other}#No such heading]] [[Shared alias]] [[Alias 999]]`,
        ].join('\n\n'),
      );
    }
    const app = await indexed(ws.dataDir, ws.vault);
    const db = app.index.database();
    const store = new IndexStore(db, linkKey);
    const resolver = new VaultLinkResolver(store.resolverNotes(), store.attachmentStates().keys());
    const links = new LinkResolutions(db).linksPage(0, 1_000_000);
    expect(links.length).toBeGreaterThan(6000);
    const differing = links.filter(
      (link) =>
        JSON.stringify(storedResolution(resolver.resolve(link, link.source))) !==
        JSON.stringify({
          resolved: link.resolved,
          status: link.status,
          candidates: link.candidates,
          viaAlias: link.viaAlias,
          subpathLine: link.subpathLine,
          reason: link.reason,
        }),
    );
    expect(differing).toEqual([]);
    const statuses = new Set(links.map((link) => `${link.status}${link.viaAlias ? ' via alias' : ''}`));
    expect([...statuses].sort()).toEqual([
      'ambiguous',
      'ambiguous via alias',
      'broken',
      'broken-subpath',
      'resolved',
      'resolved via alias',
    ]);
    const indexes = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'",
      )
      .all()
      .map(({ name }) => name);
    expect(indexes).toEqual(
      expect.arrayContaining(['links_note', 'links_key', 'links_resolved', 'tags_key']),
    );
  });
  it('cancelled part-way keeps what it wrote, indexed, and the next open completes it exactly', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 1500, seed: 11 });
    const app = createApp({
      host: 'cli',
      version: '0.0.0',
      dataDir: ws.dataDir,
      resourcesDir,
      vault: ws.vault,
      watch: false,
      parserWorker: builtParserWorker,
    });
    cleanups.push(() => app.dispose());
    let cancelled = false;
    cleanups.push(
      app.events.subscribe((channel, payload) => {
        const progress = payload as IndexProgress;
        if (
          channel === 'index:progress' &&
          progress.state === 'indexing' &&
          progress.done >= 300 &&
          !cancelled
        ) {
          cancelled = true;
          app.index.cancel();
        }
      }),
    );
    await app.start();
    await app.index.whenIdle();
    expect(cancelled).toBe(true);
    expect(app.index.status().progress.state).toBe('cancelled');
    const partial = app.index.database().prepare<[], { n: number }>('SELECT count(*) AS n FROM notes').get()!
      .n;
    expect(partial).toBeGreaterThanOrEqual(300);
    expect(partial).toBeLessThan(1400);
    const indexes = app.index
      .database()
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index'")
      .all()
      .map(({ name }) => name);
    expect(indexes).toEqual(expect.arrayContaining(['links_key', 'links_resolved', 'headings_note']));
    await app.dispose();

    const resumed = await indexed(ws.dataDir, ws.vault);
    expect(resumed.index.status().report).toMatchObject({ parsed: expect.any(Number) });
    const fresh = await indexed(workspace().dataDir, ws.vault);
    expect(dumpIndex(resumed)).toEqual(dumpIndex(fresh));
  });
  it('re-resolves every link when a note it announced by name is gone by the time it is parsed', async () => {
    const ws = workspace();
    mkdirSync(ws.vault, { recursive: true });
    for (let index = 0; index < 100; index++)
      writeFileSync(join(ws.vault, `n${String(index).padStart(3, '0')}.md`), 'See [[zz target]].\n');
    writeFileSync(join(ws.vault, 'zz target.md'), '# Target\n');
    const files = await scanVault(ws.vault);
    const inline = createParserPool(null);
    // The file disappears between the scan and its parse (its batch is the last).
    const racing: ParserPool = {
      parse: (task, signal) => {
        if (task.paths.includes('zz target.md')) unlinkSync(join(ws.vault, 'zz target.md'));
        return inline.parse(task, signal);
      },
      dispose: () => inline.dispose(),
    };
    const index = new VaultIndex({
      dataDir: ws.dataDir,
      events: new AppEvents(),
      pool: racing,
      onNotice: () => {},
    });
    cleanups.push(() => index.close());
    const report = await index.open(ws.vault, files);
    expect(report).toMatchObject({ notes: 100, broken: 100 });
    expect(index.links().every((link) => link.status === 'broken' && link.resolved === null)).toBe(true);
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
