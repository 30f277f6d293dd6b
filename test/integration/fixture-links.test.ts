import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

/** Fixture vaults whose every link was worked out by hand from the resolution rules (PRODUCT.md §1). */
const vaults = ['duplicates', 'subpaths', 'unicode', 'broken', 'tables', 'code', 'bad-files', 'twins'];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ExpectedLink {
  source: string;
  line: number;
  column: number;
  raw: string;
  embed: boolean;
  target: string;
  subpath: string | null;
  resolved: string | null;
  status: string;
  /** Set on links naming an alias: unresolved, as in Obsidian, and reported with the notes having it. */
  viaAlias?: true;
}

const order = (a: ExpectedLink, b: ExpectedLink) =>
  a.source.localeCompare(b.source) || a.line - b.line || a.column - b.column;

describe.each(vaults)('the %s fixture vault', (name) => {
  it('resolves every link exactly as worked out by hand', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const app: KastenApp = await startIndexedApp(ws.dataDir, join(fixtures, 'vaults', name));
    cleanups.push(() => app.dispose());

    const expected = (
      JSON.parse(readFileSync(join(fixtures, 'expected', `${name}.links.json`), 'utf8')) as ExpectedLink[]
    ).sort(order);
    const actual = app.index
      .links()
      .map(({ source, line, column, raw, embed, target, subpath, resolved, status, viaAlias }) => ({
        source,
        line,
        column,
        raw,
        embed,
        target,
        subpath,
        resolved,
        status,
        ...(viaAlias ? { viaAlias } : {}),
      }))
      .sort(order);
    expect(actual).toEqual(expected);

    const report = app.index.report();
    const count = (status: string) => expected.filter((link) => link.status === status).length;
    expect(report).toMatchObject({
      links: expected.length,
      broken: count('broken'),
      ambiguous: count('ambiguous'),
      brokenSubpaths: count('broken-subpath'),
    });
    // The health view lists links naming an alias apart, each with the link to write instead.
    const health = app.index.health();
    const aliased = expected.filter((link) => link.viaAlias);
    expect(health.aliasLinks.map((link) => link.raw)).toEqual(aliased.map((link) => link.raw));
    expect(health.aliasLinks.every((link) => link.fix?.startsWith('[['))).toBe(true);
    expect(health.broken).toHaveLength(count('broken') - aliased.length);
  });
});
