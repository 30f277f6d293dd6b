import type { FSWatcher } from 'chokidar';
import { lstat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fromVaultPath, isIgnoredName, isInside, toVaultPath } from './vault-files';

export interface FileEvent {
  type: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
  path: string;
  /** When the watcher reported it (`Date.now()`), to measure how fast the index follows. */
  at: number;
  /**
   * Set by the vault on an `unlink` it made of an `add` or `change`: the file is there but not part of
   * the vault (a symlink leading outside, a name that is not UTF-8), and this says why.
   */
  skipped?: string;
}

export interface VaultWatcherOptions {
  root: string;
  /** Receives coalesced batches of events in arrival order. */
  onBatch: (events: FileEvent[]) => void;
  onError: (error: Error) => void;
  /** Quiet time before a batch is delivered; bursts such as a `git checkout` arrive as few batches. */
  debounceMs?: number;
}

const maxWaitMs = 1000;

/** Watches a vault folder with chokidar and delivers debounced batches of vault-relative events. */
export class VaultWatcher {
  private watcher: FSWatcher | null = null;
  private pending: FileEvent[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: VaultWatcherOptions) {}

  /** Resolves once the initial crawl is done and changes are being reported. */
  async start(): Promise<void> {
    const { root } = this.options;
    // Loaded here: a one-shot command (`kasten search`) watches nothing.
    const { watch } = await import('chokidar');
    const watcher = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (path) =>
        path !== root &&
        path
          .slice(root.length + 1)
          .split(sep)
          .some(isIgnoredName),
    });
    this.watcher = watcher;
    for (const type of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
      watcher.on(type, (path: string) => this.push({ type, path: toVaultPath(root, path), at: Date.now() }));
    }
    watcher.on('error', (error) =>
      this.options.onError(error instanceof Error ? error : new Error(String(error))),
    );
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  private push(event: FileEvent): void {
    this.pending.push(event);
    if (this.timer) clearTimeout(this.timer);
    // A long burst is still delivered every maxWaitMs rather than only once it ends.
    const waited = Date.now() - (this.pending[0]?.at ?? Date.now());
    const delay = Math.max(0, Math.min(this.options.debounceMs ?? 40, maxWaitMs - waited));
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.options.onBatch(batch);
  }

  /**
   * How the initial crawl differs from a scan of the vault made just before it (`known`): files created
   * meanwhile (the crawl lists them; the watcher does not report what it finds on the way) and files
   * deleted meanwhile (known, not listed, and gone from disk). Read from the crawl's own listing; only
   * the differences are checked on disk.
   */
  async differencesFrom(known: ReadonlySet<string>): Promise<{ added: string[]; removed: string[] }> {
    const { root } = this.options;
    const watched = this.watcher?.getWatched() ?? {};
    const folders = new Set(Object.keys(watched));
    const listed = new Set<string>();
    const candidates: string[] = [];
    for (const [folder, names] of Object.entries(watched)) {
      if (!isInside(root, folder)) continue;
      // Vault paths by slicing: path.relative for each of 10k entries took most of 50 ms.
      const prefix = folder === root ? '' : `${toVaultPath(root, folder)}/`;
      for (const name of names) {
        const path = prefix + name;
        listed.add(path);
        if (!known.has(path) && !folders.has(join(folder, name))) candidates.push(path);
      }
    }
    const onDisk = (path: string) => lstat(fromVaultPath(root, path)).catch(() => null);
    const added = await Promise.all(
      candidates.map(async (path) => ((await onDisk(path))?.isFile() ? path : null)),
    );
    // A known file the crawl did not list may sit in a symlinked folder, which it does not enter.
    const unlisted = [...known].filter((path) => !listed.has(path));
    const removed = await Promise.all(unlisted.map(async (path) => ((await onDisk(path)) ? null : path)));
    return {
      added: added.filter((path) => path !== null),
      removed: removed.filter((path) => path !== null),
    };
  }

  async dispose(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
    await this.watcher?.close();
    this.watcher = null;
  }
}
