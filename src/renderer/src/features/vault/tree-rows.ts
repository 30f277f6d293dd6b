import type { TreeEntry } from '../../../../shared/domain';

/** One line of the note tree as shown: an entry, how deep it sits, and whether a folder is open. */
export interface TreeRow {
  entry: TreeEntry;
  depth: number;
  expanded: boolean;
}

/** Top-level folders start open, deeper ones closed; `toggled` holds the folders the user flipped. */
export function isExpanded(path: string, depth: number, toggled: ReadonlySet<string>): boolean {
  return (depth === 0) !== toggled.has(path);
}

/** The rows a person sees, in order: every entry whose folders are all open. */
export function visibleRows(entries: readonly TreeEntry[], toggled: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: { entry: TreeEntry; depth: number }[] = entries
    .map((entry) => ({ entry, depth: 0 }))
    .reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { entry, depth } = next;
    const expanded = entry.kind === 'folder' && isExpanded(entry.path, depth, toggled);
    rows.push({ entry, depth, expanded });
    if (entry.kind === 'folder' && expanded) {
      for (let index = entry.children.length - 1; index >= 0; index--)
        stack.push({ entry: entry.children[index]!, depth: depth + 1 });
    }
  }
  return rows;
}
