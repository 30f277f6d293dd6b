import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confineToVault } from '../../../src/main/vault/vault-paths';

const base = mkdtempSync(join(tmpdir(), 'kasten-paths-'));
const vault = join(base, 'vault');
mkdirSync(join(vault, 'sub'), { recursive: true });
mkdirSync(join(vault, '.obsidian'));
writeFileSync(join(vault, 'sub', 'note.md'), '# note');
writeFileSync(join(vault, '.obsidian', 'app.json'), '{}');
writeFileSync(join(base, 'secret.md'), 'secret');
symlinkSync(join(base, 'secret.md'), join(vault, 'leak.md'));
symlinkSync(join(vault, 'sub', 'note.md'), join(vault, 'alias.md'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('paths are confined to the vault', () => {
  it('resolves paths inside the vault, including symlinks that stay inside', async () => {
    await expect(confineToVault(vault, 'sub/note.md')).resolves.toMatch(/sub[\\/]note\.md$/);
    await expect(confineToVault(vault, './sub/../sub/note.md')).resolves.toMatch(/note\.md$/);
    await expect(confineToVault(vault, 'alias.md')).resolves.toMatch(/sub[\\/]note\.md$/);
  });

  it('refuses .., absolute paths and symlinks that leave the vault', async () => {
    for (const path of [
      '../secret.md',
      'sub/../../secret.md',
      join(base, 'secret.md'),
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      'leak.md',
    ]) {
      await expect(confineToVault(vault, path), path).rejects.toMatchObject({ code: 'outside-vault' });
    }
  });

  it('reports missing files and ignored folders as not found', async () => {
    await expect(confineToVault(vault, 'nope.md')).rejects.toMatchObject({ code: 'not-found' });
    await expect(confineToVault(vault, '.obsidian/app.json')).rejects.toMatchObject({ code: 'not-found' });
  });
});
