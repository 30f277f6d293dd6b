import { describe, expect, it } from 'vitest';
import { treeKeyAction, visibleRows } from '../../../src/renderer/src/features/vault/tree-rows';
import { foldersAbove } from '../../../src/renderer/src/features/vault/tree-store';
import type { TreeEntry } from '../../../src/shared/domain';

const note = (path: string): TreeEntry => ({
  kind: 'note',
  path,
  name: path.split('/').at(-1)!.slice(0, -3),
});
const folder = (path: string, children: TreeEntry[]): TreeEntry => ({
  kind: 'folder',
  path,
  name: path.split('/').at(-1)!,
  noteCount: children.length,
  children,
});

const entries: TreeEntry[] = [
  folder('a', [folder('a/deep', [note('a/deep/x.md')]), note('a/one.md')]),
  folder('b', [note('b/two.md')]),
  note('top.md'),
];

const shown = (expanded: string[]) =>
  visibleRows(entries, new Set(expanded)).map((row) => `${'  '.repeat(row.depth)}${row.entry.path}`);

describe('the note tree rows', () => {
  it('shows the top level with every folder closed until opened, in tree order', () => {
    expect(shown([])).toEqual(['a', 'b', 'top.md']);
    expect(shown(['a'])).toEqual(['a', '  a/deep', '  a/one.md', 'b', 'top.md']);
    expect(shown(['a', 'a/deep', 'b'])).toEqual([
      'a',
      '  a/deep',
      '    a/deep/x.md',
      '  a/one.md',
      'b',
      '  b/two.md',
      'top.md',
    ]);
    // An open folder inside a closed one stays hidden, and opens again with it.
    expect(shown(['a/deep'])).toEqual(['a', 'b', 'top.md']);
  });

  it('marks which folders are open', () => {
    const rows = visibleRows(entries, new Set(['a']));
    expect(
      rows.filter((row) => row.entry.kind === 'folder').map((row) => [row.entry.path, row.expanded]),
    ).toEqual([
      ['a', true],
      ['a/deep', false],
      ['b', false],
    ]);
  });

  it('names the folders that hold a note, outermost first', () => {
    expect(foldersAbove('a/deep/x.md')).toEqual(['a', 'a/deep']);
    expect(foldersAbove('top.md')).toEqual([]);
  });
});

describe('keys in the note tree', () => {
  // a, a/deep (closed), a/one.md, b, b/two.md, top.md
  const rows = visibleRows(entries, new Set(['a', 'b']));

  it('moves down, up, to the ends; with no row active, Home and the arrows go to the first row, End to the last', () => {
    expect(treeKeyAction('ArrowDown', rows, 0)).toEqual({ kind: 'move', index: 1 });
    expect(treeKeyAction('ArrowDown', rows, 5)).toEqual({ kind: 'move', index: 5 });
    expect(treeKeyAction('ArrowUp', rows, 0)).toEqual({ kind: 'move', index: 0 });
    expect(treeKeyAction('End', rows, 1)).toEqual({ kind: 'move', index: 5 });
    expect(treeKeyAction('Home', rows, 4)).toEqual({ kind: 'move', index: 0 });
    expect(treeKeyAction('ArrowDown', rows, -1)).toEqual({ kind: 'move', index: 0 });
    expect(treeKeyAction('Home', rows, -1)).toEqual({ kind: 'move', index: 0 });
    expect(treeKeyAction('End', rows, -1)).toEqual({ kind: 'move', index: 5 });
    expect(treeKeyAction('End', [], -1)).toBeNull();
    expect(treeKeyAction('Enter', rows, -1)).toBeNull();
  });

  it('opens and closes folders with the arrows, and goes up to the folder a row is in', () => {
    expect(treeKeyAction('ArrowRight', rows, 1)).toEqual({ kind: 'toggle' }); // a/deep is closed
    expect(treeKeyAction('ArrowRight', rows, 0)).toEqual({ kind: 'move', index: 1 }); // a is open
    expect(treeKeyAction('ArrowLeft', rows, 0)).toEqual({ kind: 'toggle' });
    expect(treeKeyAction('ArrowLeft', rows, 2)).toEqual({ kind: 'move', index: 0 }); // a/one.md → a
    expect(treeKeyAction('ArrowLeft', rows, 4)).toEqual({ kind: 'move', index: 3 }); // b/two.md → b
    expect(treeKeyAction('ArrowLeft', rows, 5)).toBeNull(); // top.md has no folder
    expect(treeKeyAction('ArrowRight', rows, 5)).toBeNull();
  });

  it('opens a note or toggles a folder with Enter and Space', () => {
    expect(treeKeyAction('Enter', rows, 2)).toEqual({ kind: 'open' });
    expect(treeKeyAction(' ', rows, 3)).toEqual({ kind: 'toggle' });
    expect(treeKeyAction('x', rows, 2)).toBeNull();
  });
});
