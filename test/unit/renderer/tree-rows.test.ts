import { describe, expect, it } from 'vitest';
import { visibleRows } from '../../../src/renderer/src/features/vault/tree-rows';
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

const shown = (toggled: string[]) =>
  visibleRows(entries, new Set(toggled)).map((row) => `${'  '.repeat(row.depth)}${row.entry.path}`);

describe('the note tree rows', () => {
  it('opens top-level folders and closes deeper ones until toggled, in tree order', () => {
    expect(shown([])).toEqual(['a', '  a/deep', '  a/one.md', 'b', '  b/two.md', 'top.md']);
    expect(shown(['a/deep'])).toEqual([
      'a',
      '  a/deep',
      '    a/deep/x.md',
      '  a/one.md',
      'b',
      '  b/two.md',
      'top.md',
    ]);
    expect(shown(['a', 'a/deep'])).toEqual(['a', 'b', '  b/two.md', 'top.md']);
  });

  it('marks which folders are open', () => {
    const rows = visibleRows(entries, new Set(['b']));
    expect(
      rows.filter((row) => row.entry.kind === 'folder').map((row) => [row.entry.path, row.expanded]),
    ).toEqual([
      ['a', true],
      ['a/deep', false],
      ['b', false],
    ]);
  });
});
