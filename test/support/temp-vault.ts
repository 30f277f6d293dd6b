import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const fixturesDir = join(import.meta.dirname, '..', 'fixtures', 'vaults');
export const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');

/** A scratch folder holding a copy of a fixture vault and an empty data directory. */
export function tempWorkspace(fixture?: string) {
  const base = mkdtempSync(join(tmpdir(), 'kasten-it-'));
  const vault = join(base, 'vault');
  const dataDir = join(base, 'data');
  if (fixture) cpSync(join(fixturesDir, fixture), vault, { recursive: true });
  return { base, vault, dataDir, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** Resolves when `predicate` holds, polling; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
