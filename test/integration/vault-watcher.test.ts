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
  it('names the regular files it found that a scan did not list, and nothing else', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    mkdirSync(join(ws.vault, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(ws.vault, '.obsidian'));
    writeFileSync(join(ws.vault, 'Known.md'), '# Known\n');
    writeFileSync(join(ws.vault, 'figure.png'), 'png');
    writeFileSync(join(ws.vault, 'sub', 'Created meanwhile.md'), '# New\n');
    writeFileSync(join(ws.vault, 'sub', 'deeper', 'scan.pdf'), 'pdf');
    writeFileSync(join(ws.vault, '.obsidian', 'workspace.json'), '{}');
    // A symlinked folder is the scan's business (it follows those that stay inside the vault).
    symlinkSync(join(ws.vault, 'sub'), join(ws.vault, 'linked'));

    const watcher = new VaultWatcher({ root: ws.vault, onBatch: () => {}, onError: () => {} });
    cleanups.push(() => watcher.dispose());
    await watcher.start();

    const scanned = new Set(['Known.md', 'figure.png', 'linked/Created meanwhile.md']);
    const missed = await watcher.filesMissingFrom((path) => scanned.has(path));
    expect(missed.sort()).toEqual(['sub/Created meanwhile.md', 'sub/deeper/scan.pdf']);

    const everything = new Set([...scanned, ...missed]);
    expect(await watcher.filesMissingFrom((path) => everything.has(path))).toEqual([]);
  });
});
