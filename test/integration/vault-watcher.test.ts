import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultWatcher } from '../../src/main/vault/vault-watcher';
import { tempWorkspace } from '../support/temp-vault';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the watcher after its initial crawl', () => {
  it('names the files created and deleted since a scan, and nothing else', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    mkdirSync(join(ws.vault, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(ws.vault, '.obsidian'));
    writeFileSync(join(ws.vault, 'Known.md'), '# Known\n');
    writeFileSync(join(ws.vault, 'figure.png'), 'png');
    writeFileSync(join(ws.vault, 'sub', 'Created meanwhile.md'), '# New\n');
    writeFileSync(join(ws.vault, 'sub', 'deeper', 'scan.pdf'), 'pdf');
    writeFileSync(join(ws.vault, '.obsidian', 'workspace.json'), '{}');
    // A symlinked folder is the scan's business (it follows those into folders it would otherwise skip).
    symlinkSync(join(ws.vault, 'sub'), join(ws.vault, 'linked'));

    const watcher = new VaultWatcher({ root: ws.vault, onBatch: () => {}, onError: () => {} });
    cleanups.push(() => watcher.dispose());
    await watcher.start();

    // The scan listed a note deleted before the crawl; a file in the symlinked folder is not listed by
    // the crawl, which does not enter it, but is still there.
    const scanned = new Set([
      'Known.md',
      'figure.png',
      'linked/Created meanwhile.md',
      'Deleted meanwhile.md',
    ]);
    const { added, removed } = await watcher.differencesFrom(scanned);
    expect(added.sort()).toEqual(['sub/Created meanwhile.md', 'sub/deeper/scan.pdf']);
    expect(removed).toEqual(['Deleted meanwhile.md']);

    const current = new Set([...scanned, ...added].filter((path) => !removed.includes(path)));
    expect(await watcher.differencesFrom(current)).toEqual({ added: [], removed: [] });
  });
});
