import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
/** The parser worker as the app runs it: built by electron-vite, loaded by piscina in worker threads. */
export const builtIndexWorker = join(root, 'out', 'main', 'index-worker.js');
/** The attachment reader's worker, built beside it. */
export const builtAttachmentWorker = join(root, 'out', 'main', 'attachment-worker.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Vitest global setup: builds the app when the built worker is missing or older than the sources. */
export default function setup(): void {
  const sources = Math.max(
    newestSource(join(root, 'src', 'main')),
    newestSource(join(root, 'src', 'shared')),
  );
  const fresh = (file: string) => existsSync(file) && statSync(file).mtimeMs >= sources;
  if (fresh(builtIndexWorker) && fresh(builtAttachmentWorker)) return;
  execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'ignore' });
}
