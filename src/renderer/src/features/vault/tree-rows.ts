import type { TreeEntry } from '../../../../shared/domain';

/** One line of the note tree as shown: an entry, how deep it sits, and whether a folder is open. */
export interface TreeRow {
  entry: TreeEntry;
  depth: number;
  expanded: boolean;
}

/** The rows a person sees, in order: every entry whose folders are all in `expanded`. */
export function visibleRows(entries: readonly TreeEntry[], expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: { entry: TreeEntry; depth: number }[] = entries
    .map((entry) => ({ entry, depth: 0 }))
    .reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { entry, depth } = next;
    const open = entry.kind === 'folder' && expanded.has(entry.path);
    rows.push({ entry, depth, expanded: open });
    if (entry.kind === 'folder' && open) {
      for (let index = entry.children.length - 1; index >= 0; index--)
        stack.push({ entry: entry.children[index]!, depth: depth + 1 });
    }
  }
  return rows;
}

/** What a key does in the tree (the ARIA tree pattern), given the rows and the active row's index. */
export type TreeKeyAction = { kind: 'move'; index: number } | { kind: 'toggle' } | { kind: 'open' };

export function treeKeyAction(key: string, rows: readonly TreeRow[], active: number): TreeKeyAction | null {
  const row = rows[active];
  if (!row) {
    if (key === 'End') return rows.length > 0 ? { kind: 'move', index: rows.length - 1 } : null;
    return ['ArrowDown', 'ArrowUp', 'Home'].includes(key) && rows.length > 0
      ? { kind: 'move', index: 0 }
      : null;
  }
  const isFolder = row.entry.kind === 'folder';
  switch (key) {
    case 'ArrowDown':
      return { kind: 'move', index: Math.min(rows.length - 1, active + 1) };
    case 'ArrowUp':
      return { kind: 'move', index: Math.max(0, active - 1) };
    case 'Home':
      return { kind: 'move', index: 0 };
    case 'End':
      return { kind: 'move', index: rows.length - 1 };
    case 'ArrowRight':
      if (!isFolder) return null;
      return row.expanded
        ? { kind: 'move', index: Math.min(rows.length - 1, active + 1) }
        : { kind: 'toggle' };
    case 'ArrowLeft': {
      if (isFolder && row.expanded) return { kind: 'toggle' };
      // To the folder this row is in: the nearest row above it one level up.
      for (let index = active - 1; index >= 0; index--)
        if (rows[index]!.depth < row.depth) return { kind: 'move', index };
      return null;
    }
    case 'Enter':
    case ' ':
      return isFolder ? { kind: 'toggle' } : row.entry.kind === 'note' ? { kind: 'open' } : null;
    default:
      return null;
  }
}
