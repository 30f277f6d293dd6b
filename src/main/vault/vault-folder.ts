import { constants, lstatSync, openSync, renameSync, unlinkSync, type Dirent } from 'node:fs';
import { link, lstat, mkdir, open, readdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type NativeExtensions = typeof import('fs-native-extensions');
let native: NativeExtensions | null = null;
/**
 * renameat2 and renamex_np, loaded at the first swap: the addon and its resolver (nine modules and a
 * native library) are a write's, not every command's.
 */
const nativeExtensions = () =>
  (native ??= createRequire(import.meta.url)('fs-native-extensions') as NativeExtensions);

/** Thrown when a held folder is no longer the one its path names (the fallback's check). */
export class FolderMoved extends Error {
  constructor(readonly path: string) {
    super(`${path} was moved or replaced while it was written to`);
    this.name = 'FolderMoved';
  }
}

// Windows has neither flag: Node leaves them undefined there.
const noFollow = constants.O_NOFOLLOW ?? 0;
const folderFlags = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | noFollow;

interface Identity {
  dev: number;
  ino: number;
}

/**
 * A vault folder held open, so that the names written in it are resolved in that very folder, not
 * by a path whose folders may have been swapped for symlinks since they were checked.
 *
 * What each platform gets:
 * - Linux: every name is reached as `/proc/self/fd/<folder>/<name>`, which the kernel resolves in the
 *   folder the descriptor holds (an openat without Node having one). A folder renamed, or swapped for a
 *   symlink, after it was opened changes nothing: the write lands in the folder that was checked.
 * - macOS, and Linux without /proc: names are reached by path. Each folder was opened with O_NOFOLLOW
 *   and its device and inode are compared with what its path (and every parent's) names now, before
 *   and after each operation; a swap is refused when seen. A swap that comes and goes inside one
 *   operation is not seen: the window is one system call long, not closed.
 * - Windows: as macOS, but a folder cannot be held open there (Node refuses to open one), so the
 *   folders are identified by lstat alone, and O_NOFOLLOW does not exist: a file swapped for a link
 *   within the window would be followed. Swaps are three renames there, not atomic.
 */
export class VaultFolder {
  private readonly children: VaultFolder[] = [];

  private constructor(
    /** The folder's real path: what the fallback resolves names by, and what messages never show. */
    readonly path: string,
    private readonly handle: FileHandle | null,
    private readonly identity: Identity,
    private readonly parent: VaultFolder | null,
    private readonly byDescriptor: boolean,
  ) {}

  /** The vault's folder itself, by its real path; the caller closes it (and with it every child). */
  static async openRoot(realRoot: string): Promise<VaultFolder> {
    const { handle, identity } = await openFolder(realRoot);
    const byDescriptor = handle !== null && (await procNames(handle, identity));
    return new VaultFolder(realRoot, handle, identity, null, byDescriptor);
  }

  /**
   * The subfolder `name`, never through a symlink: one there makes it fail with ELOOP or ENOTDIR.
   * With `create`, a missing one is made first. Closed with its root's close().
   */
  async child(name: string, { create }: { create: boolean }): Promise<VaultFolder> {
    if (create) {
      await this.guarded(() =>
        mkdir(this.name(name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        }),
      );
    }
    const child = await this.guarded(async () => {
      if (!this.byDescriptor) {
        const entry = await lstat(this.name(name));
        if (entry.isSymbolicLink()) throw Object.assign(new Error('symlink'), { code: 'ELOOP' });
      }
      return openFolder(this.name(name));
    });
    const folder = new VaultFolder(
      join(this.path, name),
      child.handle,
      child.identity,
      this,
      this.byDescriptor,
    );
    this.children.push(folder);
    if (!this.byDescriptor) folder.verify();
    return folder;
  }

  /** The folder's entries, as readdir lists them. */
  entries(): Promise<Dirent[]> {
    return this.guarded(() => readdir(this.name('.'), { withFileTypes: true }));
  }

  /** Opens the file `name` in this folder; a symlink there is never followed (ELOOP). */
  openFile(name: string, flags: number, mode?: number): Promise<FileHandle> {
    return this.guarded(() => open(this.name(name), flags | noFollow, mode));
  }

  /** A second name for the file `from`; fails with EEXIST rather than replace what `to` names. */
  link(from: string, to: string): Promise<void> {
    return this.guarded(() => link(this.name(from), this.name(to)));
  }

  // Synchronous, so that a check and the exchange it guards follow each other without a pause.
  openFileSync(name: string, flags: number): number {
    return this.guardedSync(() => openSync(this.name(name), flags | noFollow));
  }

  /** Exchanges what the two names hold, in one step on Linux and macOS (renameat2, renamex_np). */
  swapSync(first: string, second: string): void {
    this.guardedSync(() => nativeExtensions().swapSync(this.name(first), this.name(second)));
  }

  /** Moves `from` to `to` in this folder in one step; a file at `to` is replaced (give a fresh name). */
  renameSync(from: string, to: string): void {
    this.guardedSync(() => renameSync(this.name(from), this.name(to)));
  }

  unlinkSync(name: string): void {
    this.guardedSync(() => unlinkSync(this.name(name)));
  }

  unlink(name: string): Promise<void> {
    return this.guarded(() => unlink(this.name(name)));
  }

  /** Closes this folder and every folder opened below it. */
  async close(): Promise<void> {
    for (const child of this.children.splice(0)) await child.close();
    await this.handle?.close();
  }

  private name(name: string): string {
    return this.byDescriptor ? `/proc/self/fd/${this.handle!.fd}/${name}` : join(this.path, name);
  }

  /** Runs `operation`; by path, only between two checks that the folders are still the ones held. */
  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    if (this.byDescriptor) return operation();
    this.verify();
    const result = await operation();
    this.verify();
    return result;
  }

  private guardedSync<T>(operation: () => T): T {
    if (this.byDescriptor) return operation();
    this.verify();
    const result = operation();
    this.verify();
    return result;
  }

  /** The fallback's check: this folder and each parent are still, by path, the folders opened. */
  private verify(): void {
    const now = lstatSync(this.path, { throwIfNoEntry: false });
    if (!now?.isDirectory() || now.dev !== this.identity.dev || now.ino !== this.identity.ino) {
      throw new FolderMoved(this.path);
    }
    this.parent?.verify();
  }
}

async function openFolder(path: string): Promise<{ handle: FileHandle | null; identity: Identity }> {
  const handle = await open(path, folderFlags).catch((error: NodeJS.ErrnoException) => {
    // Windows opens no folder; there the folder is known by its identity alone.
    if (process.platform === 'win32' && (error.code === 'EISDIR' || error.code === 'EPERM')) return null;
    throw error;
  });
  const info = handle ? await handle.stat() : await lstat(path);
  if (!info.isDirectory()) {
    await handle?.close();
    throw Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR' });
  }
  return { handle, identity: { dev: info.dev, ino: info.ino } };
}

/** Whether /proc/self/fd names this descriptor's folder (Linux with /proc mounted). */
async function procNames(handle: FileHandle, identity: Identity): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  const seen = await stat(`/proc/self/fd/${handle.fd}`).catch(() => null);
  return seen !== null && seen.dev === identity.dev && seen.ino === identity.ino;
}
