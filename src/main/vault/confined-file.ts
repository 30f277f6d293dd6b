import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, posix, win32 } from 'node:path';
import { isIgnoredName, isIgnoredPath, isInside, skipReasons, toVaultPath } from './vault-files';

/** Why a vault path was not opened; `message` names vault paths only, never an absolute one. */
export type Refusal =
  | { kind: 'outside'; message: string }
  | { kind: 'ignored'; message: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'not-a-file'; message: string }
  | { kind: 'denied'; message: string }
  | { kind: 'failed'; message: string };

export class RefusedPath extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'RefusedPath';
  }
}

// Non-blocking, so that a FIFO named `x.md` cannot hang a reader; no controlling terminal from a tty.
export const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * The segments of a vault-relative path from outside (renderer, model, CLI, watcher), or a refusal:
 * absolute paths, `..` and ignored folders never reach the file system.
 */
export function vaultSegments(vaultPath: string): string[] {
  if (isAbsolute(vaultPath) || posix.isAbsolute(vaultPath) || win32.isAbsolute(vaultPath)) {
    throw new RefusedPath({
      kind: 'outside',
      message: `"${vaultPath}" is an absolute path; only paths inside the vault can be opened.`,
    });
  }
  const segments = posix.normalize(vaultPath.replaceAll('\\', '/')).split('/');
  if (segments[0] === '..') {
    throw new RefusedPath({ kind: 'outside', message: `"${vaultPath}" points outside the vault.` });
  }
  if (segments.some((segment) => segment !== '.' && isIgnoredName(segment))) {
    throw new RefusedPath({ kind: 'ignored', message: `"${vaultPath}" is in a folder Kasten ignores.` });
  }
  return segments;
}

/**
 * Where the open descriptor really is. Linux names it in /proc: that is the file that was opened,
 * whatever the path's folders became since. Elsewhere the path is resolved after opening and must
 * lead to the very file opened (same device and inode); a swap in between is refused, never followed.
 */
function openedPath(fd: number, absolute: string, opened: Stats): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    try {
      const real = realpathSync(absolute);
      const now = statSync(real);
      return now.dev === opened.dev && now.ino === opened.ino ? real : null;
    } catch {
      return null;
    }
  }
}

function refusalOf(error: unknown, vaultPath: string): Refusal {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return { kind: 'not-found', message: `"${vaultPath}" does not exist in the vault.` };
  }
  if (code === 'ELOOP') return { kind: 'outside', message: `"${vaultPath}" ${skipReasons.loop}.` };
  if (code === 'EACCES' || code === 'EPERM') {
    return { kind: 'denied', message: `"${vaultPath}" cannot be read: permission denied.` };
  }
  if (code === 'EISDIR') return { kind: 'not-a-file', message: `"${vaultPath}" is not a file.` };
  return { kind: 'failed', message: `"${vaultPath}" cannot be read (${code ?? (error as Error).message}).` };
}

/**
 * Checks an opened descriptor: a regular file whose real place is inside the vault and in no folder
 * Kasten ignores (a note linked to `.git/config` would otherwise bring a credential in).
 */
function verifyOpened(fd: number, realRoot: string, absolute: string, vaultPath: string): Stats {
  const stats = fstatSync(fd);
  const real = openedPath(fd, absolute, stats);
  if (real === null || !isInside(realRoot, real)) {
    throw new RefusedPath({ kind: 'outside', message: `"${vaultPath}" ${skipReasons.outside}.` });
  }
  if (isIgnoredPath(toVaultPath(realRoot, real))) {
    throw new RefusedPath({ kind: 'ignored', message: `"${vaultPath}" ${skipReasons.ignored}.` });
  }
  if (!stats.isFile())
    throw new RefusedPath({ kind: 'not-a-file', message: `"${vaultPath}" is not a file.` });
  return stats;
}

/**
 * Opens a vault file for reading and verifies what was opened, not what the path named a moment
 * before: every read of a note or attachment goes through here (or its async twin below), so a symlink
 * or a folder swapped for one while Kasten runs cannot bring a file from outside the vault in.
 * `realRoot` is the vault folder's real path. Throws RefusedPath; the caller closes the descriptor.
 */
export function openConfinedSync(realRoot: string, vaultPath: string): { fd: number; stats: Stats } {
  const absolute = join(realRoot, ...vaultSegments(vaultPath));
  let fd: number;
  try {
    fd = openSync(absolute, readFlags);
  } catch (error) {
    throw new RefusedPath(refusalOf(error, vaultPath));
  }
  try {
    return { fd, stats: verifyOpened(fd, realRoot, absolute, vaultPath) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** openConfinedSync for the main thread: the open and the reads do not block it. */
export async function openConfined(
  realRoot: string,
  vaultPath: string,
): Promise<{ handle: FileHandle; stats: Stats }> {
  const absolute = join(realRoot, ...vaultSegments(vaultPath));
  let handle: FileHandle;
  try {
    handle = await open(absolute, readFlags);
  } catch (error) {
    throw new RefusedPath(refusalOf(error, vaultPath));
  }
  try {
    return { handle, stats: verifyOpened(handle.fd, realRoot, absolute, vaultPath) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
