import type { FolderEntry, TreeEntry } from '../../shared/domain';

/** Made at the first tree, not at start: ICU's collation data takes 8 ms to load. */
let collator: Intl.Collator | null = null;

/** Builds the folder tree shown on the left: folders first, then files, in natural order. */
export function buildTree(notes: readonly string[], attachments: readonly string[]): TreeEntry[] {
  const names = (collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' }));
  const root: FolderEntry = { kind: 'folder', name: '', path: '', noteCount: 0, children: [] };
  const folders = new Map<string, FolderEntry>([['', root]]);

  const folderFor = (path: string): FolderEntry => {
    const existing = folders.get(path);
    if (existing) return existing;
    const cut = path.lastIndexOf('/');
    const parent = folderFor(cut < 0 ? '' : path.slice(0, cut));
    const folder: FolderEntry = {
      kind: 'folder',
      name: path.slice(cut + 1),
      path,
      noteCount: 0,
      children: [],
    };
    parent.children.push(folder);
    folders.set(path, folder);
    return folder;
  };

  const add = (path: string, kind: 'note' | 'attachment') => {
    const cut = path.lastIndexOf('/');
    const fileName = path.slice(cut + 1);
    const name = kind === 'note' ? fileName.replace(/\.md$/i, '') : fileName;
    folderFor(cut < 0 ? '' : path.slice(0, cut)).children.push({ kind, name, path });
  };
  notes.forEach((path) => add(path, 'note'));
  attachments.forEach((path) => add(path, 'attachment'));

  const finish = (folder: FolderEntry): number => {
    folder.children.sort(
      (a, b) => Number(b.kind === 'folder') - Number(a.kind === 'folder') || names.compare(a.name, b.name),
    );
    folder.noteCount = folder.children.reduce(
      (count, child) => count + (child.kind === 'folder' ? finish(child) : child.kind === 'note' ? 1 : 0),
      0,
    );
    return folder.noteCount;
  };
  finish(root);
  return root.children;
}
