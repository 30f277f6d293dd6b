import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { AppEvents } from '../../src/main/app-events';
import { IndexStore } from '../../src/main/index/index-store';
import { LinkResolutions, storedResolution } from '../../src/main/index/link-resolutions';
import { createIndexWorkers, type IndexWorkers } from '../../src/main/index/index-workers';
import { parseNotes } from '../../src/main/index/parse-file';
import { VaultIndex } from '../../src/main/index/vault-index';
import { dropLookupIndexes } from '../../src/main/storage/index-database';
import { scanVault, type VaultFiles } from '../../src/main/vault/vault-files';
import type { IndexProgress } from '../../src/shared/index-domain';
import { VaultLinkResolver } from '../../src/shared/links/link-resolver';
import { dumpIndex } from '../support/index-dump';
import { createIndexedApp, startIndexedApp } from '../support/indexed-app';
import { writeSyntheticVault } from '../support/synthetic-vault';
import { tempWorkspace } from '../support/temp-vault';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace() {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  return ws;
}

async function indexed(dataDir: string, vault: string): Promise<KastenApp> {
  const app = await startIndexedApp(dataDir, vault);
  cleanups.push(() => app.dispose());
  return app;
}

/** An index in `dataDir` that parses with `workers`, closed after the test. */
function indexWith(dataDir: string, workers: IndexWorkers): VaultIndex {
  const index = new VaultIndex({ dataDir, events: new AppEvents(), workers, onNotice: () => {} });
  cleanups.push(() => index.close());
  return index;
}

/** Opens `index` on the vault's `files`; resolves with the report of its pass. */
async function openedReport(index: VaultIndex, vault: string, files: VaultFiles) {
  await index.open(vault, files);
  return index.status().report!;
}

/** Index workers whose pool parses with `parse`; the main thread parses beside it, and ranks alone. */
function workersParsing(parse: IndexWorkers['parse']): IndexWorkers {
  const inline = createIndexWorkers(null);
  return {
    parse,
    parseHere: parseNotes,
    rankers: 0,
    rank: (task) => inline.rank(task),
    dispose: () => inline.dispose(),
  };
}

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
    const store = new IndexStore(db);
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
    // A link naming an alias is broken, and its reason names the notes with that alias, known only once
    // they are parsed.
    expect([...statuses].sort()).toEqual([
      'ambiguous',
      'broken',
      'broken via alias',
      'broken-subpath',
      'resolved',
    ]);
    expect(links.find((link) => link.target === 'Shared alias')?.reason).toBe(
      "“Shared alias” is an alias of n290, n291, n292 and 7 more, not a note's name: Obsidian leaves the link unresolved.",
    );
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
    const app = createIndexedApp(ws.dataDir, ws.vault);
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
  it('is started again when the process died part-way through it', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 300, seed: 13 });
    const crashed = await startIndexedApp(ws.dataDir, ws.vault);
    // What a cold index leaves when it dies before its end: no lookup indexes, and links into notes parsed
    // after them not yet checked against those notes' headings and blocks.
    const db = crashed.index.database();
    dropLookupIndexes(db);
    const unsettled = db
      .prepare("UPDATE links SET status = 'broken-subpath', subpath_line = NULL WHERE subpath IS NOT NULL")
      .run().changes;
    expect(unsettled).toBeGreaterThan(100);
    await crashed.dispose();

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    cleanups.push(() => warn.mockRestore());
    const reopened = await indexed(ws.dataDir, ws.vault);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Indexing of this vault was interrupted/));
    expect(reopened.index.health().notices).toEqual([
      expect.stringMatching(
        /^Indexing of this vault was interrupted before it finished; .* is being rebuilt\.$/,
      ),
    ]);
    const fresh = await indexed(workspace().dataDir, ws.vault);
    expect(dumpIndex(reopened)).toEqual(dumpIndex(fresh));
  });
  it('is not mistaken for interrupted when an index only lacks a lookup index new in this version', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 50, seed: 5 });
    const older = await startIndexedApp(ws.dataDir, ws.vault);
    // The index as the version before wrote it: the issue links indexed by status alone.
    older.index
      .database()
      .exec("DROP INDEX links_issues; CREATE INDEX links_issue ON links(status) WHERE status != 'resolved'");
    await older.dispose();

    const reopened = await indexed(ws.dataDir, ws.vault);
    expect(reopened.index.health().notices).toEqual([]);
    expect(reopened.index.status().report).toMatchObject({ parsed: 0 });
    const names = reopened.index
      .database()
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE name LIKE 'links_issue%'")
      .all();
    expect(names).toEqual([{ name: 'links_issues' }]);
    // The counts read the index alone, not each link's row.
    const plan = reopened.index
      .database()
      .prepare(
        "EXPLAIN QUERY PLAN SELECT sum(status = 'broken' AND via_alias = 1) FROM links WHERE status != 'resolved'",
      )
      .all() as { detail: string }[];
    expect(plan.map(({ detail }) => detail).join()).toContain('COVERING INDEX links_issues');
  });
  it('re-resolves every link when a note it announced by name is gone by the time it is parsed', async () => {
    const ws = workspace();
    mkdirSync(ws.vault, { recursive: true });
    for (let index = 0; index < 100; index++)
      writeFileSync(join(ws.vault, `n${String(index).padStart(3, '0')}.md`), 'See [[zz target]].\n');
    writeFileSync(join(ws.vault, 'zz target.md'), '# Target\n');
    const files = await scanVault(ws.vault);
    const inline = createIndexWorkers(null);
    // The file disappears between the scan and its parse (its batch is the last).
    const racing: IndexWorkers = {
      parse: (task, signal) => {
        if (task.paths.includes('zz target.md')) unlinkSync(join(ws.vault, 'zz target.md'));
        return inline.parse(task, signal);
      },
      rankers: 0,
      rank: (task) => inline.rank(task),
      dispose: () => inline.dispose(),
    };
    const index = indexWith(ws.dataDir, racing);
    const report = await openedReport(index, ws.vault, files);
    expect(report).toMatchObject({ notes: 100, broken: 100 });
    expect(index.links().every((link) => link.status === 'broken' && link.resolved === null)).toBe(true);
  });

  it('parsed mostly on the main thread while the workers are slow, holds what one parsed in one place holds, and follows later edits', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 300, seed: 11 });
    const files = await scanVault(ws.vault);
    const inline = createIndexWorkers(null);
    // Workers that take their time with each task: the main thread, with nothing to write meanwhile,
    // parses notes itself.
    const slow = workersParsing(async (task, signal) => {
      await sleep(40);
      return inline.parse(task, signal);
    });
    const open = async (workers: IndexWorkers, dataDir: string) => {
      const index = indexWith(dataDir, workers);
      return { index, report: await openedReport(index, ws.vault, files) };
    };
    const mixed = await open(slow, join(ws.base, 'mixed'));
    const single = await open(inline, join(ws.base, 'single'));

    expect(mixed.report.profile?.parseOnMain).toBeGreaterThan(0);
    expect(mixed.report.notes).toBe(single.report.notes);
    expect(dumpIndex(mixed)).toEqual(dumpIndex(single));
    const indexNames = (index: VaultIndex) =>
      index
        .database()
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
        .all()
        .map(({ name }) => name);
    expect(indexNames(mixed.index)).toEqual(indexNames(single.index));
    expect(indexNames(mixed.index)).toEqual(
      expect.arrayContaining(['links_note', 'links_issues', 'tags_key']),
    );
    // Every match with its score; notes of equal score come in the order they were written, which
    // depends on which thread parsed them first (as with several workers), so they are compared sorted.
    const everyHit = async (index: VaultIndex, query: string) =>
      (await index.search({ query, limit: 1000 })).sort(
        (a, b) => b.score - a.score || a.path.localeCompare(b.path),
      );
    for (const query of ['note idea', 'summary', 'zettel', 'missing']) {
      const hits = await everyHit(mixed.index, query);
      expect(hits.length, query).toBeGreaterThan(0);
      expect(hits, query).toEqual(await everyHit(single.index, query));
    }

    // A note written after the cold index is indexed, its link resolved as a new note's.
    writeFileSync(join(ws.vault, 'Late zebra.md'), '# Late zebra\n\nStripes, see [[Late elsewhere]].\n');
    await mixed.index.applyChanges([{ type: 'add', path: 'Late zebra.md', at: Date.now() }]);
    const hits = await mixed.index.search({ query: 'stripes', limit: 5 });
    expect(hits.map((hit) => hit.path)).toEqual(['Late zebra.md']);
    expect(mixed.index.outgoing('Late zebra.md').map((link) => link.status)).toEqual(['broken']);
  }, 60_000);

  it('of a few notes, and an edit, are parsed on the main thread alone; a larger pass asks the workers', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 40, seed: 12 });
    const inline = createIndexWorkers(null);
    const tasks: number[] = [];
    const counting = workersParsing((task, signal) => {
      tasks.push(task.paths.length);
      return inline.parse(task, signal);
    });
    const index = indexWith(ws.dataDir, counting);
    const small = await openedReport(index, ws.vault, await scanVault(ws.vault));
    expect(small.parsed).toBe(small.notes);
    expect(small.notes).toBeGreaterThan(30);
    expect(tasks).toEqual([]);

    writeFileSync(join(ws.vault, 'Edited.md'), '# Edited\n\nA [[link]].\n');
    await index.applyChanges([{ type: 'add', path: 'Edited.md', at: Date.now() }]);
    expect(index.note('Edited.md')?.title).toBe('Edited');
    expect(tasks).toEqual([]);

    writeSyntheticVault(join(ws.vault, 'more'), { notes: 200, seed: 13 });
    const larger = await openedReport(index, ws.vault, await scanVault(ws.vault));
    expect(larger.parsed).toBeGreaterThan(150);
    expect(tasks.length).toBeGreaterThan(0);
  });

  it('asks once for the garbage it left to be collected, and a warm open of the same index does not', async () => {
    const ws = workspace();
    writeSyntheticVault(ws.vault, { notes: 60, seed: 3 });
    const collected = vi.fn();
    const cold = await startIndexedApp(ws.dataDir, ws.vault, { afterColdIndex: collected });
    expect(collected).toHaveBeenCalledTimes(1);
    // An edit after the cold pass is a batch, not a cold pass.
    writeFileSync(join(ws.vault, 'new.md'), '# New\n\nA note written later.');
    await cold.index.catchUp(['new.md']);
    await cold.dispose();
    expect(collected).toHaveBeenCalledTimes(1);

    const warm = await startIndexedApp(ws.dataDir, ws.vault, { afterColdIndex: collected });
    cleanups.push(() => warm.dispose());
    expect(warm.index.status().report?.notes).toBe(61);
    expect(collected).toHaveBeenCalledTimes(1);
  });
});
