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
  it('indexes the bad-files fixture with a warning for each odd file, and loses none of its links', async () => {
    // The committed fixture holds what git can carry (binary, Latin-1, BOM, CRLF, bad and unclosed
    // frontmatter, an empty note); symlinks and a 51.5 MB note are made here.
    const ws = tempWorkspace('bad-files');
    cleanups.push(ws.remove);
    const { vault } = ws;
    writeFileSync(
      join(vault, 'big.md'),
      '# Big\n\n[[Target]]\n\n' + 'lorem ipsum dolor sit amet '.repeat(2_000_000),
    );
    mkdirSync(join(ws.base, 'outside'));
    writeFileSync(join(ws.base, 'outside', 'Secret.md'), 'secret');
    symlinkSync(join(ws.base, 'outside'), join(vault, 'escape'));
    mkdirSync(join(vault, 'folder'));
    writeFileSync(join(vault, 'folder', 'Inside.md'), '# Inside\n');
    symlinkSync(vault, join(vault, 'folder', 'loop'));
    symlinkSync(join(vault, 'folder'), join(vault, 'shortcut'));
    symlinkSync(join(ws.base, 'nothing-here'), join(vault, 'dangling.md'));

    const app = await indexed(ws.dataDir, vault);
    const report = app.index.status().report!;
    // The fixture's ten notes, big.md and folder/Inside.md; nothing through a symlink.
    expect(report.notes).toBe(12);
    const messages: Record<string, string[]> = {};
    for (const { path, message } of report.warnings) (messages[path] ??= []).push(message);
    expect(messages).toEqual({
      'binary.md': [expect.stringMatching(/binary/i)],
      'latin1.md': [expect.stringMatching(/not valid UTF-8/)],
      'bad yaml.md': [expect.stringMatching(/Frontmatter is not valid YAML/)],
      'big.md': [expect.stringMatching(/51\.5 MB: only the first 2 MB/)],
      escape: [expect.stringMatching(/outside the vault/)],
      'folder/loop': [expect.stringMatching(/symlink loop/)],
      shortcut: [expect.stringMatching(/vault's own folder “folder”/)],
      'dangling.md': [expect.stringMatching(/target is missing/)],
    });
    expect(JSON.stringify(report.warnings)).not.toMatch(/Secret/);

    // The fixture's own links are checked by fixture-links.test.ts; the odd files read as expected.
    const from = (source: string) => app.index.links().filter((link) => link.source === source);
    expect(from('big.md')).toMatchObject([{ status: 'resolved', resolved: 'Target.md', line: 3 }]);
    expect(app.index.note('binary.md')).toMatchObject({ title: 'binary' });
    expect(app.index.note('latin1.md')).toMatchObject({ title: 'Caf\uFFFD' });
    expect(app.index.note('bom.md')).toMatchObject({ title: 'With BOM' });
    expect(app.index.note('crlf.md')).toMatchObject({ title: 'CRLF note' });
    expect(app.index.note('bad yaml.md')).toMatchObject({ title: 'Still here' });
    expect(app.index.note('unclosed frontmatter.md')).toMatchObject({ title: 'Heading' });
    expect(app.index.note('empty.md')).toMatchObject({ title: 'empty' });
    // Opening the binary note says what it is rather than showing its bytes as text.
    await expect(app.handlers['notes:read']({ path: 'binary.md' })).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringMatching(/binary file, not Markdown text/),
    });
    await expect(app.handlers['notes:read']({ path: 'latin1.md' })).resolves.toMatchObject({
      content: expect.stringContaining('caf\uFFFD au lait'),
    });
    expect((await app.index.search({ query: 'With BOM' }))[0]?.path).toBe('bom.md');
    expect((await app.index.search({ query: 'lorem' }))[0]?.path).toBe('big.md');
    expect((await app.index.search({ query: 'lait' }))[0]?.path).toBe('latin1.md');
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
