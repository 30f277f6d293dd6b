import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import type { VaultChange } from '../../src/shared/domain';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace, waitFor } from '../support/temp-vault';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function indexed(dataDir: string, vault: string, watch = false): Promise<KastenApp> {
  const app = await startIndexedApp(dataDir, vault, { watch });
  cleanups.push(() => app.dispose());
  return app;
}

/** The basic fixture vault, indexed and watched; `until` waits for a vault change of a given reason. */
async function watchedBasicVault() {
  const ws = tempWorkspace('basic');
  cleanups.push(ws.remove);
  const app = await indexed(ws.dataDir, ws.vault, true);
  const seen: VaultChange[] = [];
  cleanups.push(
    app.events.subscribe((channel, payload) => {
      if (channel === 'vault:changed') seen.push(payload as VaultChange);
    }),
  );
  const until = (reason: VaultChange['reason']) =>
    waitFor(() => seen.some((change) => change.reason === reason), 10_000, `a vault change (${reason})`);
  return { ws, app, until };
}

describe('bad input is survived and reported', () => {
  it('indexes odd files with warnings instead of failing', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const { vault } = ws;
    mkdirSync(join(vault, 'odd'), { recursive: true });
    writeFileSync(join(vault, 'Target.md'), '# Target\n\n## Part\n');
    writeFileSync(join(vault, 'odd', 'binary.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
    writeFileSync(
      join(vault, 'odd', 'latin1.md'),
      Buffer.concat([Buffer.from('Caf'), Buffer.from([0xe9]), Buffer.from(' [[Target]]\n')]),
    );
    writeFileSync(join(vault, 'odd', 'bom.md'), '\uFEFF---\ntitle: With BOM\n---\nSee [[Target#Part]].\n');
    writeFileSync(join(vault, 'odd', 'crlf.md'), '# CRLF note\r\n\r\nLine two [[Target]]\r\n');
    writeFileSync(
      join(vault, 'odd', 'bad yaml.md'),
      '---\ntitle: [unclosed\ntags: a\n---\n# Still here\n[[Target]]\n',
    );
    const big = '# Big\n\n[[Target]]\n\n' + 'lorem ipsum dolor sit amet '.repeat(2_000_000);
    writeFileSync(join(vault, 'odd', 'big.md'), big);
    writeFileSync(join(vault, 'odd', 'name with spaces 🦊.md'), '[[Target]]');
    writeFileSync(join(vault, 'odd', 'Cafe\u0301 NFD.md'), '[[Target]]');
    writeFileSync(join(vault, 'odd', 'CASE.md'), 'upper');
    writeFileSync(join(vault, 'odd', 'case.md'), 'lower');
    mkdirSync(join(ws.base, 'outside'));
    writeFileSync(join(ws.base, 'outside', 'Secret.md'), 'secret');
    symlinkSync(join(ws.base, 'outside'), join(vault, 'escape'));
    symlinkSync(vault, join(vault, 'odd', 'loop'));

    const app = await indexed(ws.dataDir, vault);
    const report = app.index.status().report!;
    expect(report.notes).toBe(11);
    const warningsFor = (path: string) =>
      report.warnings.filter((warning) => warning.path === path).map((warning) => warning.message);
    expect(warningsFor('odd/binary.md')).toEqual([expect.stringMatching(/binary/i)]);
    expect(warningsFor('odd/latin1.md')).toEqual([expect.stringMatching(/UTF-8/)]);
    expect(warningsFor('odd/bad yaml.md')).toEqual([expect.stringMatching(/YAML/)]);
    expect(warningsFor('odd/big.md')).toEqual([expect.stringMatching(/51\.5 MB/)]);
    expect(warningsFor('escape')).toEqual([expect.stringMatching(/outside the vault/)]);
    expect(JSON.stringify(report.warnings)).not.toMatch(/Secret/);

    const links = app.index.links();
    const from = (source: string) => links.filter((link) => link.source === source);
    expect(from('odd/latin1.md')).toMatchObject([{ status: 'resolved', resolved: 'Target.md' }]);
    expect(from('odd/bom.md')).toMatchObject([{ status: 'resolved', line: 4 }]);
    expect(from('odd/crlf.md')).toMatchObject([{ status: 'resolved', line: 3 }]);
    expect(from('odd/bad yaml.md')).toMatchObject([{ status: 'resolved' }]);
    expect(from('odd/big.md')).toMatchObject([{ status: 'resolved', line: 3 }]);
    expect(from('odd/name with spaces 🦊.md')).toHaveLength(1);
    expect(from('odd/Cafe\u0301 NFD.md')).toHaveLength(1);
    expect((await app.index.search({ query: 'With BOM' }))[0]?.path).toBe('odd/bom.md');
    expect((await app.index.search({ query: 'upper' }))[0]?.path).toBe('odd/CASE.md');
    expect((await app.index.search({ query: 'lower' }))[0]?.path).toBe('odd/case.md');
  });

  it('says the vault folder is gone when it is deleted while open, and keeps answering', async () => {
    const { ws, app, until } = await watchedBasicVault();
    rmSync(ws.vault, { recursive: true, force: true });
    await until('missing');
    expect(app.vault.summary()).toMatchObject({ missing: true });
    expect(app.index.status().report?.notes).toBe(3);
    await expect(app.handlers['notes:read']({ path: 'Home.md' })).rejects.toMatchObject({
      code: expect.any(String),
    });
  });

  it('reads the vault again when its folder comes back, and watches it again', async () => {
    const { ws, app, until } = await watchedBasicVault();
    // A drive unplugged and plugged in again: the folder goes away, then returns with a note more.
    const away = `${ws.vault}-away`;
    renameSync(ws.vault, away);
    await until('missing');
    writeFileSync(join(away, 'Written elsewhere.md'), '# Written elsewhere\n\nLinks [[Home]].\n');
    renameSync(away, ws.vault);
    await until('returned');
    expect(app.vault.summary()).toMatchObject({ missing: false, noteCount: 4 });
    await app.index.whenIdle();
    expect(app.index.status().report?.notes).toBe(4);
    await expect(app.handlers['notes:read']({ path: 'Home.md' })).resolves.toMatchObject({ path: 'Home.md' });

    // Watched again: a note written now is indexed without reopening.
    writeFileSync(join(ws.vault, 'After return.md'), '# After return\n\nSee [[Home]].\n');
    await waitFor(() => app.index.note('After return.md') !== null, 5000, 'the new note in the index');
    expect(app.index.backlinks('Home.md').map((link) => link.source)).toEqual(
      expect.arrayContaining(['After return.md', 'Written elsewhere.md']),
    );
  });
});
