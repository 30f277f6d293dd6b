import type { FileEvent } from '../vault/vault-watcher';
import type { StateScope } from './index-store';

/** What a batch of watcher events amounts to once only each path's last event counts. */
export interface WatchBatch {
  /** The paths the batch names, and the folders it removed: whose indexed states it needs. */
  scope: StateScope;
  /** Whether the file at `path` is gone: unlinked, or inside a removed folder and not re-added. */
  removed(path: string): boolean;
  /** Paths added or changed. */
  changed: string[];
  /** When the first event was reported (`Date.now()`). */
  firstEventAt: number;
}

export function summarizeBatch(batch: FileEvent[]): WatchBatch {
  const finalType = new Map<string, FileEvent['type']>();
  const removedDirs: string[] = [];
  for (const event of batch) {
    if (event.type === 'unlinkDir') removedDirs.push(event.path);
    else if (event.type !== 'addDir') finalType.set(event.path, event.type);
  }
  return {
    scope: { paths: [...finalType.keys()], folders: removedDirs },
    removed: (path) =>
      finalType.get(path) === 'unlink' ||
      (!finalType.has(path) && removedDirs.some((dir) => path.startsWith(`${dir}/`))),
    changed: [...finalType].filter(([, type]) => type !== 'unlink').map(([path]) => path),
    firstEventAt: Math.min(...batch.map((event) => event.at)),
  };
}
