import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isLeftoverTemporary } from './write-temporaries';

/** What the scanner found: vault-relative, `/`-separated paths. */
export interface VaultFiles {
  notes: string[];
  attachments: string[];
  /** Entries skipped with the reason (symlinks leaving the vault, unreadable folders). */
  skipped: { path: string; reason: string }[];
  /** Absolute paths of temporary files left by a writer killed mid-write (see write-temporaries.ts). */
  leftovers: string[];
}

/** Dot-folders (`.obsidian`, `.git`, `.trash`) and `node_modules` are never part of a vault. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** A vault-relative path that passes through (or names) a folder or file Kasten ignores. */
export function isIgnoredPath(vaultPath: string): boolean {
  return vaultPath.split('/').some(isIgnoredName);
}

export function isNotePath(path: string): boolean {
  return path.toLowerCase().endsWith('.md');
}

export function toVaultPath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}

/**
 * Where the vault path `vaultPath` (as the scan and the watcher give it: `/`-separated, no `.` or `..`)
 * is under `root`. On POSIX a string join is that path: `join` cost a fifth of the stats of a warm pass.
 */
export function fromVaultPath(root: string, vaultPath: string): string {
  return sep === '/' ? `${root}/${vaultPath}` : join(root, ...vaultPath.split('/'));
}

/** Why an entry is left out of the vault; the same words at start-up, from the watcher and on reads. */
export const skipReasons = {
  outside: 'is a symlink that leads outside the vault',
  dangling: 'is a symlink to nothing (its target is missing)',
  loop: 'is a symlink loop (it leads to a folder it is in)',
  ignored:
    'is a symlink into a folder Kasten ignores (a dot-folder such as .git or .obsidian, or node_modules)',
  badName: 'has a name that is not valid UTF-8 (shown with “\uFFFD”); rename it to include it',
} as const;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');
let pathCollator: Intl.Collator | null = null;

/**
 * The order notes are listed and indexed in. One collator's compare: `localeCompare` looked the locale up
 * for each of a 10k vault's comparisons, 18 against 8 ms to sort them. Made at the first scan, not at
 * start: ICU's collation data takes 8 ms to load.
 */
function byPath(): (a: string, b: string) => number {
  return (pathCollator ??= new Intl.Collator('en')).compare;
}

/** A file name as listed in bytes, or null when it is not valid UTF-8 (paths of such names cannot be built). */
function nameOf(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A folder's entry: its name, or null when that is not valid UTF-8, and the name as it can be shown. */
interface ListedEntry {
  entry: Dirent<string> | Dirent<Buffer>;
  name: string | null;
  shown: string;
}

/**
 * A folder's entries. Listed as text: decoding each name from bytes took as long as the listing (a 10k
 * vault's names 21–68 ms as bytes against 13–30 as text). A name that is not valid UTF-8 comes back as
 * text with U+FFFD in it, naming no file, so a folder with one in a name is listed again as bytes.
 */
async function listFolder(dir: string): Promise<ListedEntry[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (!entries.some((entry) => entry.name.includes('\uFFFD'))) {
    return entries.map((entry) => ({ entry, name: entry.name, shown: entry.name }));
  }
  const bytes = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  return bytes.map((entry) => ({ entry, name: nameOf(entry.name), shown: lenientUtf8.decode(entry.name) }));
}

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Why a symlink whose real target is `target` (null: there is none) is left out of the vault, or null.
 * A target in an ignored folder is refused like one outside: `cfg.md -> .git/config` is not a note.
 */
export function linkSkipReason(realRoot: string, target: string | null): string | null {
  if (!target) return skipReasons.dangling;
  if (!isInside(realRoot, target)) return skipReasons.outside;
  return isIgnoredPath(toVaultPath(realRoot, target)) ? skipReasons.ignored : null;
}

/**
 * Walks the vault folder. A symlinked file counts when it leads to a file of the vault outside ignored
 * folders; a symlinked folder is never entered (folders of the vault are walked where they are).
 */
export async function scanVault(root: string): Promise<VaultFiles> {
  const realRoot = await realpath(root);
  const files: VaultFiles = { notes: [], attachments: [], skipped: [], leftovers: [] };

  // `folder`: the vault path of `dir` ('' at the root). Paths are joined as strings: `join` and
  // `relative` for each of 10k entries were a third of the walk.
  async function walk(dir: string, folder: string): Promise<void> {
    // A folder's subfolders are listed at the same time: a 10k vault's 13 folders one after another
    // took 16–46 ms, side by side 11–22, the thread pool's threads listing while the main thread waits.
    const folders: Promise<void>[] = [];
    let entries;
    try {
      entries = await listFolder(dir);
    } catch (error) {
      files.skipped.push({
        path: folder,
        reason: `cannot be read (${whyUnreadable(error)})`,
      });
      return;
    }
    for (const { entry, name, shown } of entries) {
      if (name === null) {
        files.skipped.push({ path: toVaultPath(root, join(dir, shown)), reason: skipReasons.badName });
        continue;
      }
      const absolute = dir + sep + name;
      if (isIgnoredName(name)) {
        if (entry.isFile() && isLeftoverTemporary(name)) files.leftovers.push(absolute);
        continue;
      }
      const vaultPath = folder === '' ? name : `${folder}/${name}`;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => null);
        const reason = linkSkipReason(realRoot, target);
        if (reason !== null || target === null) {
          files.skipped.push({ path: vaultPath, reason: reason ?? skipReasons.dangling });
          continue;
        }
        // Entries deleted while the scan runs are simply not there; the watcher reports them.
        const info = await stat(target).catch(() => null);
        if (!info) continue;
        isDirectory = info.isDirectory();
        isFile = info.isFile();
        if (isDirectory && isInside(target, await realpath(dir).catch(() => dir))) {
          files.skipped.push({ path: vaultPath, reason: skipReasons.loop });
          continue;
        }
        // A folder of the vault is walked where it really is; through a symlink its notes would be
        // there twice, or not, depending on the order the folder lists its entries.
        if (isDirectory) {
          files.skipped.push({
            path: vaultPath,
            reason: `is a symlink to the vault's own folder “${toVaultPath(realRoot, target)}”, which is read where it is`,
          });
          continue;
        }
      }
      if (isDirectory) folders.push(walk(absolute, vaultPath));
      else if (isFile) (isNotePath(name) ? files.notes : files.attachments).push(vaultPath);
    }
    await Promise.all(folders);
  }

  await walk(root.endsWith(sep) ? root.slice(0, -1) || sep : root, '');
  const order = byPath();
  files.notes.sort(order);
  files.attachments.sort(order);
  // Folders are listed side by side, so what each finds arrives in no fixed order.
  files.skipped.sort((a, b) => order(a.path, b.path));
  files.leftovers.sort(order);
  return files;
}

/** Why a folder could not be listed, without its absolute path (warnings name vault paths only). */
function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (error as Error).message;
}

/**
 * Why a file the watcher reported is not part of the vault (the same words as the scan's), or null.
 * Only its own entry is looked at: the watcher does not enter symlinked folders, and every read is
 * confined again when it happens (confined-file.ts), whatever the folders became since.
 */
export async function skipReasonOf(realRoot: string, vaultPath: string): Promise<string | null> {
  const absolute = fromVaultPath(realRoot, vaultPath);
  const entry = await lstat(absolute).catch(() => null);
  if (!entry) return vaultPath.includes('\uFFFD') ? skipReasons.badName : null;
  if (!entry.isSymbolicLink()) return null;
  return linkSkipReason(realRoot, await realpath(absolute).catch(() => null));
}
