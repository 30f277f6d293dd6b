import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { HealthKind } from '../../src/shared/health-domain';
import type { ResolvedLink } from '../../src/shared/index-domain';
import { canvasTwins, writeHealthVault, type HealthVaultFacts } from '../support/health-vault';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let app: KastenApp;
let facts: HealthVaultFacts;

beforeAll(async () => {
  workspace = tempWorkspace();
  facts = writeHealthVault(workspace.vault, { notes: 200, linksPerNote: 25 });
  app = await startIndexedApp(workspace.dataDir, workspace.vault);
}, 60_000);
afterAll(async () => {
  await app?.dispose();
  workspace.remove();
});

const kind = (kinds: HealthKind[], name: string) => kinds.find((entry) => entry.kind === name)!;
const where = (link: ResolvedLink) => `${link.source}:${link.line}:${link.column}`;

/** Every link of one group, read a page at a time as the health view reads them. */
async function allPages(kindName: string, key: string, folder?: string): Promise<ResolvedLink[]> {
  const links: ResolvedLink[] = [];
  for (;;) {
    const page = await app.handlers['health:links']({
      kind: kindName,
      key,
      folder,
      offset: links.length,
      limit: 500,
    });
    links.push(...page.links);
    if (page.links.length === 0 || links.length >= page.total) return links;
  }
}

describe('the health summary of a vault with 5,000 issues', () => {
  it('counts every issue once, by kind, broken links first and ambiguous ones last', async () => {
    const summary = await app.handlers['health:summary'](undefined);
    expect(summary.kinds.map((entry) => [entry.kind, entry.title, entry.links])).toEqual([
      ['broken', 'Broken links', facts.broken],
      ['broken-subpath', 'Broken headings and blocks', facts.brokenSubpaths],
      ['ambiguous', 'Ambiguous links', facts.ambiguous],
    ]);
    for (const entry of summary.kinds)
      expect(entry.groups.reduce((sum, group) => sum + group.links, 0)).toBe(entry.links);
    const counts = app.index.issueCounts();
    expect(counts.broken + counts.ambiguous + counts.brokenSubpaths).toBe(facts.issues);
  });

  it('groups the links to one name, whatever their case, and says how many notes share it', async () => {
    const summary = await app.handlers['health:summary'](undefined);
    const ambiguous = kind(summary.kinds, 'ambiguous');
    expect(ambiguous.groups).toEqual([
      {
        key: 'canvas',
        target: 'Canvas',
        links: facts.canvasLinks,
        notes: 200,
        shared: `${canvasTwins.length} notes share this name`,
        reason: null,
      },
    ]);
    const broken = kind(summary.kinds, 'broken');
    // A thousand missing notes, and fifty per script.
    expect(broken.groups).toHaveLength(1000 + 4 * 50);
    expect(broken.groups.find((group) => group.target === 'Missing note 0')).toMatchObject({
      links: 2,
      notes: 2,
      reason: 'No note named “Missing note 0”.',
    });
    const subpaths = kind(summary.kinds, 'broken-subpath');
    expect(subpaths.groups).toHaveLength(20);
    expect(subpaths.groups[0]).toMatchObject({ target: 'Start#Heading 0', links: 50, notes: 10 });
  });

  it('reads a group a page at a time, the same links as the flat list, in its order', async () => {
    const flat = app.index.health().ambiguous;
    const paged = await allPages('ambiguous', 'canvas');
    expect(paged.map(where)).toEqual(flat.map(where));
    // By the notes' paths: the Arabic folder's first note, its first line with a link.
    expect(paged[0]).toMatchObject({
      source: facts.pathOf(1),
      line: 3,
      status: 'ambiguous',
      target: 'Canvas',
    });
    const middle = await app.handlers['health:links']({
      kind: 'ambiguous',
      key: 'canvas',
      offset: 100,
      limit: 3,
    });
    expect(middle.total).toBe(facts.canvasLinks);
    expect(middle.links.map(where)).toEqual(flat.slice(100, 103).map(where));
  });

  it('lists only the issues and warnings of the notes under a folder, not of a folder named like it', async () => {
    const arabic = await app.handlers['health:summary']({ folder: 'ar' });
    expect(arabic.folder).toBe('ar');
    expect(kind(arabic.kinds, 'ambiguous').links).toBe((facts.canvasLinks * facts.notesIn.ar!) / 200);
    const arabicLinks = await allPages('ambiguous', 'canvas', 'ar');
    expect(arabicLinks.every((link) => link.source.startsWith('ar/'))).toBe(true);
    expect(arabicLinks).toHaveLength(kind(arabic.kinds, 'ambiguous').links);

    const english = await app.handlers['health:summary']({ folder: 'en' });
    const missing = kind(english.kinds, 'broken').groups.find((group) => group.target === 'Missing note 0');
    // en-archive/Old release.md links to Missing note 0 too, but is not under en/.
    expect(missing?.notes).toBe(1);
    const archive = await app.handlers['health:summary']({ folder: 'en-archive' });
    expect(archive.kinds.map((entry) => [entry.kind, entry.links])).toEqual([['broken', 1]]);
    expect((await app.handlers['health:summary']({ folder: 'nowhere' })).kinds).toEqual([]);
  });

  it('lists a kind of issue it has no title for under its own name, before the ambiguous links', async () => {
    // A later version of the index may report kinds this page does not know; they are data.
    const db = app.index.database();
    const { id } = db
      .prepare<[], { id: number }>("SELECT id FROM links WHERE status = 'broken' ORDER BY id LIMIT 1")
      .get()!;
    db.prepare(
      "UPDATE links SET status = 'alias-unresolved', reason = 'An alias of Start.' WHERE id = ?",
    ).run(id);
    try {
      const summary = await app.handlers['health:summary'](undefined);
      expect(summary.kinds.map((entry) => entry.title)).toEqual([
        'Broken links',
        'Broken headings and blocks',
        'Alias unresolved',
        'Ambiguous links',
      ]);
      const other = kind(summary.kinds, 'alias-unresolved');
      expect(other.groups).toEqual([expect.objectContaining({ links: 1, reason: 'An alias of Start.' })]);
      const page = await app.handlers['health:links']({
        kind: 'alias-unresolved',
        key: other.groups[0]!.key,
        offset: 0,
        limit: 10,
      });
      expect(page.links.map((link) => link.status)).toEqual(['alias-unresolved']);
    } finally {
      db.prepare("UPDATE links SET status = 'broken' WHERE id = ?").run(id);
    }
  });
});
