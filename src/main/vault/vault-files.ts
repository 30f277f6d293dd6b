import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** What the scanner found: vault-relative, `/`-separated paths. */
export interface VaultFiles {
  notes: string[];
  attachments: string[];
  /** Entries skipped with the reason (symlinks leaving the vault, unreadable folders). */
  skipped: { path: string; reason: string }[];
}

/** Dot-folders (`.obsidian`, `.git`, `.trash`) and `node_modules` are never part of a vault. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

export function isNotePath(path: string): boolean {
  return path.toLowerCase().endsWith('.md');
}

export function toVaultPath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Walks the vault folder; follows symlinks that stay inside it and never loops. */
export async function scanVault(root: string): Promise<VaultFiles> {
  const realRoot = await realpath(root);
  const files: VaultFiles = { notes: [], attachments: [], skipped: [] };
  const visited = new Set<string>([realRoot]);

  async function walk(dir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      files.skipped.push({
        path: toVaultPath(root, dir),
        reason: `cannot be read (${whyUnreadable(error)})`,
      });
      return;
    }
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const absolute = join(dir, entry.name);
      const vaultPath = toVaultPath(root, absolute);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => null);
        if (!target) {
          files.skipped.push({ path: vaultPath, reason: 'is a symlink to nothing (its target is missing)' });
          continue;
        }
        if (!isInside(realRoot, target)) {
          files.skipped.push({ path: vaultPath, reason: 'is a symlink that leads outside the vault' });
          continue;
        }
        const info = await stat(target);
        isDirectory = info.isDirectory();
        isFile = info.isFile();
        if (isDirectory && isInside(target, await realpath(dir))) {
          files.skipped.push({
            path: vaultPath,
            reason: 'is a symlink loop (it leads to a folder it is in)',
          });
          continue;
        }
        // A folder of the vault is walked where it really is; through a symlink its notes would be
        // there twice, or not, depending on the order the folder lists its entries.
        const targetPath = toVaultPath(realRoot, target);
        if (isDirectory && !targetPath.split('/').some(isIgnoredName)) {
          files.skipped.push({
            path: vaultPath,
            reason: `is a symlink to the vault's own folder “${targetPath}”, which is read where it is`,
          });
          continue;
        }
        if (isDirectory && visited.has(target)) continue;
        if (isDirectory) visited.add(target);
      } else if (isDirectory) {
        visited.add(await realpath(absolute));
      }
      if (isDirectory) await walk(absolute);
      else if (isFile) (isNotePath(entry.name) ? files.notes : files.attachments).push(vaultPath);
    }
  }

  await walk(root);
  const byPath = (a: string, b: string) => a.localeCompare(b, 'en');
  files.notes.sort(byPath);
  files.attachments.sort(byPath);
  return files;
}

/** Why a folder could not be listed, without its absolute path (warnings name vault paths only). */
function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (error as Error).message;
}
