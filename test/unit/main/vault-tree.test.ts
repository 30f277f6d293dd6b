import { describe, expect, it } from 'vitest';
import { buildTree } from '../../../src/main/vault/vault-tree';

describe('note tree', () => {
  it('puts folders first, sorts naturally, counts notes per folder', () => {
    const tree = buildTree(
      ['b.md', 'Note 10.md', 'Note 2.md', 'z/deep/x.md', 'z/y.md', 'a.md'],
      ['z/pic.png'],
    );
    expect(tree.map((entry) => entry.name)).toEqual(['z', 'a', 'b', 'Note 2', 'Note 10']);
    const folder = tree[0];
    expect(folder).toMatchObject({ kind: 'folder', path: 'z', noteCount: 2 });
    if (folder?.kind !== 'folder') throw new Error('expected a folder');
    expect(folder.children.map((entry) => `${entry.kind}:${entry.path}`)).toEqual([
      'folder:z/deep',
      'attachment:z/pic.png',
      'note:z/y.md',
    ]);
  });

  it('is empty for an empty vault', () => {
    expect(buildTree([], [])).toEqual([]);
  });
});
