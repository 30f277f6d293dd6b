import { create } from 'zustand';

interface TreeState {
  /** The vault whose folders these are; null before one is open. */
  vaultPath: string | null;
  /** The open folders; every other folder is closed, so a new vault shows only its top level. */
  expanded: ReadonlySet<string>;
  /** Every folder of the vault, to remember only open folders that exist. */
  folders: ReadonlySet<string>;
  /** The vault at `vaultPath` was read, with these folders: reads its open folders when it is another one. */
  follow(vaultPath: string | null, folders: readonly string[]): void;
  toggle(path: string): void;
  collapseAll(): void;
  /** Opens the folders holding `path`, so its row is in the tree. */
  reveal(path: string): void;
}

function key(vaultPath: string): string {
  return `kasten.tree.${vaultPath}`;
}

/** The folders left open in a vault last time; a bad or foreign value reads as none. */
function readExpanded(vaultPath: string): Set<string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key(vaultPath)) ?? 'null');
    return new Set(Array.isArray(value) ? value.filter((path) => typeof path === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Remembers the open folders that still exist (a folder renamed or deleted since is dropped). */
function writeExpanded(
  vaultPath: string | null,
  expanded: ReadonlySet<string>,
  folders: ReadonlySet<string>,
) {
  if (vaultPath === null) return;
  try {
    const kept = [...expanded].filter((path) => folders.has(path));
    localStorage.setItem(key(vaultPath), JSON.stringify(kept));
  } catch {
    // A full or disabled storage only costs remembering the open folders.
  }
}

/** The folders holding `path`, outermost first: `a/b/c.md` → `a`, `a/b`. */
export function foldersAbove(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

/** Which folders of the note tree are open, remembered per vault across reloads and restarts. */
export const useTreeStore = create<TreeState>((set, get) => {
  const change = (expanded: Set<string>) => {
    set({ expanded });
    writeExpanded(get().vaultPath, expanded, get().folders);
  };
  return {
    vaultPath: null,
    expanded: new Set(),
    folders: new Set(),
    follow(vaultPath, folders) {
      if (vaultPath === get().vaultPath) set({ folders: new Set(folders) });
      else
        set({
          vaultPath,
          folders: new Set(folders),
          expanded: vaultPath ? readExpanded(vaultPath) : new Set(),
        });
    },
    toggle(path) {
      const expanded = new Set(get().expanded);
      if (!expanded.delete(path)) expanded.add(path);
      change(expanded);
    },
    collapseAll() {
      change(new Set());
    },
    reveal(path) {
      const above = foldersAbove(path);
      const { expanded } = get();
      if (above.every((folder) => expanded.has(folder))) return;
      change(new Set([...expanded, ...above]));
    },
  };
});
