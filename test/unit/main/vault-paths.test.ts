import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openConfinedSync } from '../../../src/main/vault/confined-file';
import { ConfinedReads } from '../../../src/main/vault/confined-reads';
import { readVaultFile } from '../../../src/main/vault/vault-paths';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'kasten-paths-')));
const vault = join(base, 'vault');
mkdirSync(join(vault, 'sub'), { recursive: true });
mkdirSync(join(vault, '.obsidian'));
mkdirSync(join(base, 'outside'));
writeFileSync(join(vault, 'sub', 'note.md'), '# note');
writeFileSync(join(vault, '.obsidian', 'app.json'), '{}');
writeFileSync(join(base, 'secret.md'), 'secret');
writeFileSync(join(base, 'outside', 'note.md'), 'secret in a folder');
symlinkSync(join(base, 'secret.md'), join(vault, 'leak.md'));
symlinkSync(join(base, 'outside'), join(vault, 'elsewhere'));
symlinkSync(join(vault, 'sub', 'note.md'), join(vault, 'alias.md'));
symlinkSync(join('.obsidian', 'app.json'), join(vault, 'settings.md'));
symlinkSync('.obsidian', join(vault, 'plugins'));
execFileSync('mkfifo', [join(vault, 'pipe.md')]);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const read = (path: string) => readVaultFile(vault, path, 1024 * 1024);

describe('paths are confined to the vault', () => {
  it('reads paths inside the vault, including symlinks that stay inside', async () => {
    for (const path of ['sub/note.md', './sub/../sub/note.md', 'alias.md']) {
      expect((await read(path)).bytes.toString(), path).toBe('# note');
    }
  });

  it('refuses .., absolute paths, and symlinked files and folders that leave the vault', async () => {
    for (const path of [
      '../secret.md',
      'sub/../../secret.md',
      join(base, 'secret.md'),
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      'leak.md',
      'elsewhere/note.md',
    ]) {
      await expect(read(path), path).rejects.toMatchObject({ code: 'outside-vault' });
    }
  });

  it('reports missing files and ignored folders as not found', async () => {
    await expect(read('nope.md')).rejects.toMatchObject({ code: 'not-found' });
    await expect(read('.obsidian/app.json')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses symlinked files and folders that lead into an ignored folder, by what was opened', async () => {
    for (const path of ['settings.md', 'plugins/app.json']) {
      await expect(read(path), path).rejects.toMatchObject({
        code: 'not-found',
        message: `"${path}" is a symlink into a folder Kasten ignores (a dot-folder such as .git or .obsidian, or node_modules).`,
      });
      expect(() => openConfinedSync(vault, path), path).toThrow(/into a folder Kasten ignores/);
    }
  });

  it('refuses a FIFO named like a note at once instead of waiting for a writer', async () => {
    await expect(read('pipe.md')).rejects.toMatchObject({ code: 'not-found', message: /is not a file/ });
    expect(() => openConfinedSync(vault, 'pipe.md')).toThrow(/is not a file/);
  });

  it('refuses a file larger than the limit before reading it', async () => {
    await expect(readVaultFile(vault, 'sub/note.md', 3)).rejects.toMatchObject({ code: 'too-large' });
  });

  it('reads from the descriptor it checked, and refuses the one that escaped', () => {
    const { fd } = openConfinedSync(vault, 'sub/note.md');
    try {
      expect(readFileSync(fd, 'utf8')).toBe('# note');
    } finally {
      closeSync(fd);
    }
    expect(() => openConfinedSync(vault, 'elsewhere/note.md')).toThrow(/leads outside the vault/);
  });
});

describe('many files opened with one check per folder (ConfinedReads)', () => {
  const readAll = (reads: ConfinedReads, path: string) => {
    const { fd } = reads.open(path);
    try {
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  };

  it('reads what openConfinedSync reads, and refuses what it refuses with the same words', () => {
    const reads = new ConfinedReads(vault);
    try {
      for (const path of ['sub/note.md', 'alias.md']) expect(readAll(reads, path), path).toBe('# note');
      for (const path of ['leak.md', 'elsewhere/note.md', 'settings.md', 'plugins/app.json', 'pipe.md']) {
        let refused: unknown = null;
        try {
          openConfinedSync(vault, path);
        } catch (error) {
          refused = error;
        }
        expect(refused, path).toBeInstanceOf(Error);
        expect(() => reads.open(path), path).toThrow((refused as Error).message);
      }
    } finally {
      reads.close();
    }
  });

  it('keeps reading the folder it checked when that folder is swapped for a symlink leading outside', () => {
    const root = join(base, 'swapped');
    mkdirSync(join(root, 'notes'), { recursive: true });
    writeFileSync(join(root, 'notes', 'a.md'), 'inside a');
    writeFileSync(join(root, 'notes', 'note.md'), 'inside');
    const reads = new ConfinedReads(root);
    try {
      expect(readAll(reads, 'notes/a.md')).toBe('inside a');
      renameSync(join(root, 'notes'), join(root, 'moved'));
      symlinkSync(join(base, 'outside'), join(root, 'notes'));
      expect(readAll(reads, 'notes/note.md')).toBe('inside');
    } finally {
      reads.close();
    }
    // A batch opened after the swap refuses the folder.
    const later = new ConfinedReads(root);
    try {
      expect(() => later.open('notes/note.md')).toThrow(/leads outside the vault/);
    } finally {
      later.close();
    }
  });
});
