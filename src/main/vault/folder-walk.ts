import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../app-error';
import { RefusedPath, vaultSegments } from './confined-file';
import { sameName } from './new-note-path';
import { FolderMoved, VaultFolder } from './vault-folder';
import { isInside, toVaultPath } from './vault-files';

/** A folder reached from the vault's root; `exists` false: the walk stopped at the first missing one. */
export interface LocatedFolder {
  folder: VaultFolder;
  /** The folders' names as they are spelled on disk (or as asked, for missing ones). */
  segments: string[];
  exists: boolean;
}

/** Runs `work` with the vault's root folder held open, and closes it (and all below it) after. */
export async function withVaultRoot<T>(
  realRoot: string,
  work: (root: VaultFolder) => Promise<T>,
): Promise<T> {
  const root = await VaultFolder.openRoot(realRoot);
  try {
    return await work(root);
  } finally {
    await root.close();
  }
}

/**
 * The folder `segments` name below `root`, each matched to an existing folder without regard to case
 * and opened from the one before without following a symlink; with `create`, missing ones are made.
 * A symlink on the way is refused: one leading outside would put the note outside, one to another
 * vault folder would put it where the scan does not list it.
 */
export async function locateFolder(
  root: VaultFolder,
  segments: readonly string[],
  create: boolean,
): Promise<LocatedFolder> {
  let folder = root;
  const found: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const entries = await folder.entries();
    const entry =
      entries.find((candidate) => candidate.name === segment) ??
      entries.find((candidate) => sameName(candidate.name, segment));
    const name = entry?.name ?? segment;
    const shown = [...found, name].join('/');
    if (!entry && !create) return { folder, segments: [...found, ...segments.slice(index)], exists: false };
    if (entry?.isSymbolicLink()) {
      const real = await realpath(join(root.path, shown)).catch(() => null);
      const where =
        real && isInside(root.path, real) ? 'to another folder of the vault' : 'leading outside the vault';
      throw new AppError(
        'outside-vault',
        `"${shown}" is a symlink ${where}; notes are not created through it.`,
      );
    }
    if (entry && !entry.isDirectory()) {
      throw new AppError('invalid-input', `"${shown}" is a file, not a folder.`);
    }
    folder = await folder.child(name, { create: !entry }).catch((error: unknown) => {
      throw confinedFailure(error, shown);
    });
    found.push(name);
  }
  return { folder, segments: found, exists: true };
}

/**
 * Where the note at `vaultPath` really is, as a vault path: itself, or the file of the vault a symlink
 * there leads to. A link leading outside, or into a folder Kasten ignores, is refused.
 */
export async function realNotePath(realRoot: string, vaultPath: string): Promise<string> {
  try {
    const real = await realpath(join(realRoot, ...vaultSegments(vaultPath)));
    if (!isInside(realRoot, real) || real === realRoot) {
      throw new AppError('outside-vault', `"${vaultPath}" is a symlink that leads outside the vault.`);
    }
    const path = toVaultPath(realRoot, real);
    vaultSegments(path);
    return path;
  } catch (error) {
    if (error instanceof RefusedPath) {
      throw new AppError(
        'outside-vault',
        `"${vaultPath}" leads to a file Kasten does not write: ${error.message}`,
      );
    }
    throw confinedFailure(error, vaultPath);
  }
}

/**
 * A write's failure as the user is told it: a folder on the way that became a symlink, or was moved,
 * between the check and the write (ELOOP, ENOTDIR, FolderMoved) is refused as leading outside.
 */
export function confinedFailure(error: unknown, vaultPath: string): unknown {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof FolderMoved || code === 'ELOOP' || code === 'ENOTDIR') {
    return new AppError(
      'outside-vault',
      `"${vaultPath}" was not written: a folder or file on its way was replaced by a symlink or moved meanwhile.`,
    );
  }
  if (code === 'ENOENT') return new AppError('not-found', `"${vaultPath}" does not exist in the vault.`);
  if (code === 'EACCES' || code === 'EPERM') {
    return new AppError('forbidden', `"${vaultPath}" cannot be written: permission denied.`);
  }
  return error;
}
