import { closeSync, constants, fstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { openConfinedSync, readFlags, RefusedPath, vaultSegments } from './confined-file';
import { isIgnoredPath, isInside, toVaultPath } from './vault-files';

const folderFlags = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);
const noFollow = constants.O_NOFOLLOW ?? 0;

/**
 * Opens many vault files for reading with one confinement check per folder rather than per file (a
 * `readlink` each cost a twentieth of a cold index's parse time). On Linux each folder is opened once and
 * where it really is checked as openConfinedSync checks a file; its notes are then opened as
 * `/proc/self/fd/<folder>/<name>`, which the kernel resolves in that very folder whatever its path
 * became since, and with O_NOFOLLOW, so a note that is itself a symlink is not followed there. Whatever
 * does not open that way (a symlink, a folder outside or swapped at the moment it was opened, an error,
 * another platform) goes through openConfinedSync, which verifies it and gives the refusal.
 * Close it when done: it holds the folders open.
 */
export class ConfinedReads {
  /** Each folder's descriptor, or null when its files are opened one by one. */
  private readonly folders = new Map<string, number | null>();
  private readonly byFolder = process.platform === 'linux';

  /** `realRoot`: the vault folder's real path. */
  constructor(private readonly realRoot: string) {}

  /** As openConfinedSync: a regular file inside the vault, or RefusedPath; the caller closes it. */
  open(vaultPath: string): { fd: number; stats: Stats } {
    const segments = vaultSegments(vaultPath);
    const name = segments.pop();
    const folder = this.byFolder && name && name !== '.' && name !== '..' ? this.folder(segments) : null;
    if (folder === null) return openConfinedSync(this.realRoot, vaultPath);
    let fd: number;
    try {
      fd = openSync(`/proc/self/fd/${folder}/${name}`, readFlags | noFollow);
    } catch {
      return openConfinedSync(this.realRoot, vaultPath);
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) {
        throw new RefusedPath({ kind: 'not-a-file', message: `"${vaultPath}" is not a file.` });
      }
      return { fd, stats };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  close(): void {
    for (const fd of this.folders.values()) if (fd !== null) closeSync(fd);
    this.folders.clear();
  }

  /** The descriptor of the folder `segments` name, opened and checked on first use. */
  private folder(segments: string[]): number | null {
    const key = segments.join('/');
    const known = this.folders.get(key);
    if (known !== undefined) return known;
    let fd: number | null = null;
    try {
      fd = openSync(join(this.realRoot, ...segments), folderFlags);
      const real = readlinkSync(`/proc/self/fd/${fd}`);
      if (!isInside(this.realRoot, real) || isIgnoredPath(toVaultPath(this.realRoot, real))) {
        closeSync(fd);
        fd = null;
      }
    } catch {
      if (fd !== null) closeSync(fd);
      fd = null;
    }
    this.folders.set(key, fd);
    return fd;
  }
}
