import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let app: KastenApp | null = null;
afterEach(async () => {
  await app?.dispose();
  app = null;
  workspace.remove();
});

const uuid = '0b5a3c1e-9f0d-4c57-8a59-1d2b3c4d5e6f';

describe('temporary files of a write', () => {
  it("left by a writer killed midway are removed when the vault is opened; a running writer's stay", async () => {
    workspace = tempWorkspace('chat');
    // A pid that was surely running once and is surely not now.
    const gone = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    mkdirSync(join(workspace.vault, 'sub'));
    const leftovers = [
      join(workspace.vault, `.kasten-write-${gone}-${uuid}.tmp`),
      join(workspace.vault, 'sub', `.kasten-write-${gone}-${uuid}.tmp`),
      join(workspace.vault, `.kasten-write-${uuid}.tmp`),
    ];
    const running = join(workspace.vault, `.kasten-write-${process.pid}-${uuid}.tmp`);
    for (const path of [...leftovers, running]) writeFileSync(path, 'half a note');

    app = await startIndexedApp(workspace.dataDir, workspace.vault);

    expect(leftovers.filter((path) => existsSync(path))).toEqual([]);
    expect(existsSync(running)).toBe(true);
  });
});

describe('what a write refuses or follows', () => {
  it('refuses content holding a NUL character for create and append, writing nothing', async () => {
    workspace = tempWorkspace('chat');
    app = await startIndexedApp(workspace.dataDir, workspace.vault);
    const before = readFileSync(join(workspace.vault, 'Gardening.md'));
    await expect(app.vault.prepareCreate('Binary.md', 'text\u0000more')).rejects.toThrow(/NUL character/);
    await expect(app.vault.prepareAppend('Gardening.md', 'a\u0000b', null)).rejects.toThrow(/NUL character/);
    expect(existsSync(join(workspace.vault, 'Binary.md'))).toBe(false);
    expect(readFileSync(join(workspace.vault, 'Gardening.md'))).toEqual(before);
  });

  it('appends to a note that links to another note by writing that note, named in the change; the link stays', async () => {
    workspace = tempWorkspace('chat');
    mkdirSync(join(workspace.vault, 'Real'));
    writeFileSync(join(workspace.vault, 'Real', 'Target.md'), '# Target\n');
    symlinkSync(join('Real', 'Target.md'), join(workspace.vault, 'Alias.md'));
    mkdirSync(join(workspace.vault, '.trash'));
    writeFileSync(join(workspace.vault, '.trash', 'Old.md'), '# Old\n');
    symlinkSync(join('.trash', 'Old.md'), join(workspace.vault, 'Hidden.md'));
    app = await startIndexedApp(workspace.dataDir, workspace.vault);

    const write = await app.vault.prepareAppend('Alias.md', 'Added through the link.', null);
    expect(write.change).toMatchObject({ kind: 'append', path: 'Alias.md', realPath: 'Real/Target.md' });
    await write.commit();
    expect(readFileSync(join(workspace.vault, 'Real', 'Target.md'), 'utf8')).toBe(
      '# Target\n\nAdded through the link.\n',
    );
    expect(readFileSync(join(workspace.vault, 'Alias.md'), 'utf8')).toContain('Added through the link.');

    await expect(app.vault.prepareAppend('Hidden.md', 'Into the trash?', null)).rejects.toThrow(
      /Kasten does not write/,
    );
    expect(readFileSync(join(workspace.vault, '.trash', 'Old.md'), 'utf8')).toBe('# Old\n');
  });
});
