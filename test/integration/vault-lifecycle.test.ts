import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type KastenApp } from '../../src/main/app';
import type { VaultChange } from '../../src/shared/domain';
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

async function started(options: { dataDir: string; vault?: string; resources?: string }): Promise<KastenApp> {
  const app = createApp({
    host: 'cli',
    version: '0.0.0',
    dataDir: options.dataDir,
    resourcesDir: options.resources ?? resourcesDir,
    vault: options.vault,
  });
  cleanups.push(() => app.dispose());
  await app.start();
  return app;
}

describe('opening vaults', () => {
  it('opens a copy of the sample vault on first start, then the most recent vault on the next', async () => {
    const ws = workspace('basic');
    const first = await started({ dataDir: ws.dataDir });
    const sample = first.vault.summary();
    expect(sample?.path).toBe(join(ws.dataDir, 'Sample Vault'));
    expect(sample?.noteCount).toBeGreaterThanOrEqual(10);
    expect(await first.handlers['vault:open']({ path: ws.vault })).toMatchObject({
      name: 'vault',
      noteCount: 3,
    });
    await first.dispose();

    const second = await started({ dataDir: ws.dataDir });
    expect(second.vault.summary()?.path).toBe(ws.vault);
    const recent = await second.handlers['vault:recent'](undefined);
    expect(recent.map((entry) => entry.path)).toEqual([ws.vault, join(ws.dataDir, 'Sample Vault')]);
  });

  it('refuses a missing folder or a file with a clear error and keeps the open vault', async () => {
    const ws = workspace('basic');
    const app = await started({ dataDir: ws.dataDir, vault: ws.vault });
    await expect(app.handlers['vault:open']({ path: join(ws.base, 'nowhere') })).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(app.handlers['vault:open']({ path: join(ws.vault, 'Home.md') })).rejects.toMatchObject({
      code: 'not-a-folder',
    });
    await expect(app.handlers['vault:open'](undefined)).rejects.toMatchObject({ code: 'unsupported' });
    expect(app.vault.summary()?.path).toBe(ws.vault);
  });

  it('lists notes and attachments, skipping dot-folders, node_modules, loops and symlinks leaving the vault', async () => {
    const ws = workspace('basic');
    mkdirSync(join(ws.base, 'outside'));
    writeFileSync(join(ws.base, 'outside', 'Secret.md'), 'secret');
    symlinkSync(join(ws.base, 'outside'), join(ws.vault, 'escape'));
    symlinkSync(ws.vault, join(ws.vault, 'projects', 'loop'));
    const app = await started({ dataDir: ws.dataDir, vault: ws.vault });
    const tree = await app.handlers['vault:tree'](undefined);
    expect(tree.vault).toMatchObject({ noteCount: 3, attachmentCount: 1 });
    expect(JSON.stringify(tree.entries)).not.toMatch(/Secret|obsidian|node_modules/);
    expect(tree.entries.map((entry) => entry.name)).toEqual(['assets', 'projects', 'Home', 'Ideas']);
  });

  it('sets a corrupt app database aside and starts anyway', async () => {
    const ws = workspace('basic');
    mkdirSync(ws.dataDir, { recursive: true });
    writeFileSync(
      join(ws.dataDir, 'kasten.sqlite'),
      'this is not a database, just garbage bytes'.repeat(200),
    );
    const app = await started({ dataDir: ws.dataDir, vault: ws.vault });
    expect(app.vault.summary()?.noteCount).toBe(3);
    expect(readdirSync(ws.dataDir).some((name) => name.startsWith('kasten.sqlite.corrupt-'))).toBe(true);
  });
});

describe('live updates from the real watcher', () => {
  it('reports added, edited, renamed and deleted notes and keeps the counts right', async () => {
    const ws = workspace('basic');
    const app = await started({ dataDir: ws.dataDir, vault: ws.vault });
    const changes: VaultChange[] = [];
    app.events.subscribe((channel, payload) => {
      if (channel === 'vault:changed') changes.push(payload as VaultChange);
    });
    const seen = (path: string) => () => changes.some((change) => change.paths.includes(path));

    const about = (path: string) => changes.filter((change) => change.paths.includes(path));

    writeFileSync(join(ws.vault, 'New idea.md'), '# New idea');
    await waitFor(seen('New idea.md'), 5000, 'add');
    expect(app.vault.summary()?.noteCount).toBe(4);
    expect(about('New idea.md').map((change) => change.treeChanged)).toContain(true);

    writeFileSync(join(ws.vault, 'Ideas.md'), '# Ideas\n\nEdited.');
    await waitFor(seen('Ideas.md'), 5000, 'change');
    expect((await app.handlers['notes:read']({ path: 'Ideas.md' })).content).toContain('Edited.');
    // An edit leaves the tree as it was: the renderer need not read it again.
    expect(about('Ideas.md').every((change) => !change.treeChanged)).toBe(true);

    renameSync(join(ws.vault, 'New idea.md'), join(ws.vault, 'projects', 'Renamed idea.md'));
    await waitFor(seen('projects/Renamed idea.md'), 5000, 'rename');
    rmSync(join(ws.vault, 'Home.md'));
    await waitFor(seen('Home.md'), 5000, 'unlink');
    expect(about('Home.md').map((change) => change.treeChanged)).toContain(true);
    writeFileSync(join(ws.vault, '.obsidian', 'workspace.json'), '{}');

    const tree = await app.handlers['vault:tree'](undefined);
    expect(tree.vault?.noteCount).toBe(3);
    expect(JSON.stringify(tree.entries)).toContain('projects/Renamed idea.md');
    expect(JSON.stringify(tree.entries)).not.toContain('"Home.md"');
    expect(existsSync(join(ws.vault, 'Home.md'))).toBe(false);
  });

  it('drops every note of a deleted folder', async () => {
    const ws = workspace('basic');
    const app = await started({ dataDir: ws.dataDir, vault: ws.vault });
    rmSync(join(ws.vault, 'projects'), { recursive: true });
    await waitFor(() => app.vault.summary()?.noteCount === 2, 5000, 'folder removal');
  });
});
