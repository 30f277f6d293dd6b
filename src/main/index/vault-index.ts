import type {
  HealthCounts,
  IndexChange,
  NoteInfo,
  NoteTitle,
  IndexProgress,
  IndexReport,
  ResolvedLink,
  SearchHit,
  SearchRequest,
  SimilarByWords,
  TagCount,
  VaultHealth,
} from '../../shared/index-domain';
import { fileKeys } from '../../shared/links/link-resolver';
import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import type { SqliteDatabase } from '../storage/database';
import type { VaultFiles } from '../vault/vault-files';
import { isNotePath } from '../vault/vault-files';
import type { FileEvent } from '../vault/vault-watcher';
import type { NoteHash } from './note-catalog';
import { openIndex, type OpenIndex } from './open-index';
import { RenameDetector } from './rename-detector';
import type { IndexWorkers } from './index-workers';
import { changedOnDisk, statAll, type FileStat } from './file-stats';
import { IndexUpdate } from './index-update';
import { linksInNote } from './links-in-note';
import { likeThisQuery, similarByWords } from './more-like-this';
import { summarizeBatch } from './watch-batch';
import { unreadHash } from './parsed-note';

export interface VaultIndexOptions {
  dataDir: string;
  events: AppEvents;
  workers: IndexWorkers;
  /** Shown to the user: an index that had to be rebuilt, and similar. */
  onNotice: (message: string) => void;
}

/**
 * The derived index of the open vault: brought up to date on open (re-parsing only what changed), kept
 * exact as the watcher reports changes, and queried for links, backlinks, health and search.
 */
export class VaultIndex {
  private current: OpenIndex | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private lastReport: IndexReport | null = null;
  private reportStale = false;
  private progress: IndexProgress = { state: 'idle', done: 0, total: 0, etaMs: null };
  private readonly renames = new RenameDetector();
  /** Notices about the open vault's index (see VaultHealth.notices). */
  private notices: string[] = [];
  /** Index passes running (one at most: they queue). */
  private passes = 0;

  constructor(private readonly options: VaultIndexOptions) {}

  /** Opens the index of `root` and brings it up to date with `files`; resolves when indexing is done. */
  open(root: string, files: VaultFiles): Promise<IndexReport> {
    this.closeNow();
    const notices: string[] = [];
    this.notices = notices;
    const index = openIndex(root, this.options.dataDir, (message) => {
      notices.push(message);
      this.options.onNotice(message);
    });
    this.current = index;
    return this.enqueue(() => this.refresh(index, files));
  }

  /** Applies a batch of watcher events; resolves when the index reflects them. */
  applyChanges(batch: FileEvent[]): Promise<void> {
    const index = this.current;
    if (!index) return Promise.resolve();
    return this.enqueue(() => this.applyBatch(index, batch));
  }

  /**
   * Re-reads those of `paths` whose size or time on disk differ from the index's, after the passes
   * queued so far: notes edited after the pass read them and before the watcher reached them.
   */
  catchUp(paths: string[]): Promise<void> {
    const index = this.current;
    if (!index) return Promise.resolve();
    return this.enqueue(async () => {
      const known = index.store.noteStates();
      const onDisk = await statAll(index.root, paths);
      const at = Date.now();
      const changed: FileEvent[] = [];
      for (const [path, now] of onDisk) {
        const before = known.get(path);
        if (before && changedOnDisk(before, now)) changed.push({ type: 'change', path, at });
      }
      if (changed.length > 0 && this.current === index) await this.applyBatch(index, changed);
    });
  }

  /** Stops the running index pass; what was parsed so far stays, the rest is picked up next time. */
  cancel(): void {
    const index = this.current;
    if (!index) return;
    index.controller.abort();
    index.controller = new AbortController();
  }

  /** Resolves once every queued index pass has finished. */
  async whenIdle(): Promise<void> {
    await this.queue;
  }

  status(): { progress: IndexProgress; report: IndexReport | null } {
    if (this.reportStale && this.current) {
      this.reportStale = false;
      this.lastReport = this.report(0, 0);
    }
    return { progress: this.progress, report: this.lastReport };
  }

  report(ms = 0, parsed = 0): IndexReport {
    const { reads } = this.require();
    return { ...reads.counts(), warnings: reads.warnings(), parsed, ms };
  }

  links(options: { broken?: boolean } = {}): ResolvedLink[] {
    return this.require().reads.links(options.broken ? ['broken', 'broken-subpath'] : undefined);
  }

  outgoing(path: string): ResolvedLink[] {
    return this.require().reads.outgoing(path);
  }

  backlinks(path: string): ResolvedLink[] {
    return this.require().reads.backlinks(path);
  }

  health(): VaultHealth {
    const { reads } = this.require();
    return {
      broken: reads.links(['broken']),
      ambiguous: reads.links(['ambiguous']),
      brokenSubpaths: reads.links(['broken-subpath']),
      warnings: reads.warnings(),
      notices: [...this.notices],
    };
  }

  /** The sizes of health()'s lists, without reading them. */
  issueCounts(): HealthCounts {
    return { ...this.require().reads.issueCounts(), notices: this.notices.length };
  }

  search(request: SearchRequest): Promise<SearchHit[]> {
    const index = this.require();
    // Workers share the ranking only between passes: a pass keeps its workers busy parsing, and its
    // write transaction open across slices, with rows their read connections cannot see yet.
    const between = this.passes === 0 && !index.db.inTransaction;
    return index.search.search(request, between ? this.options.workers : null);
  }

  /** Notes that share the most telling words of the note at `path`, best first (BM25 "more like this"). */
  async similarByWords(path: string, limit = 8): Promise<SimilarByWords[]> {
    const index = this.require();
    const columns = index.catalog.searchColumns(path);
    const query = columns ? likeThisQuery(columns) : '';
    if (query === '') return [];
    return similarByWords(path, await this.search({ query, limit: limit + 1 }), limit);
  }

  /** The indexed note at `path`, or null. */
  note(path: string): NoteInfo | null {
    return this.require().catalog.note(path);
  }

  /** Every note's title and aliases. */
  titles(): NoteTitle[] {
    return this.require().catalog.titles();
  }

  /** Path, title, content hash and lead of every note (or of those at `paths`), for the summary cache. */
  noteHashes(paths?: readonly string[]): NoteHash[] {
    return this.require().catalog.hashes(paths);
  }

  /** Notes sharing tags with `path`, most shared first. */
  sharingTags(path: string, limit = 10) {
    return this.require().catalog.sharingTags(path, limit);
  }

  tags(): TagCount[] {
    return this.require().search.tags();
  }

  /** Resolves one link as if it were written in the note at `fromPath` (chat messages, tools). */
  resolve(link: { target: string; subpath: string | null }, fromPath: string) {
    return this.require().resolver.resolve(link, fromPath);
  }

  /** The links in `content` (the note at `path` as just read), resolved against the vault as it is now. */
  linksIn(path: string, content: string): ResolvedLink[] {
    const { resolver } = this.require();
    return linksInNote(path, content, resolver);
  }

  /** Test seam: the raw database of the open index. */
  database(): SqliteDatabase {
    return this.require().db;
  }

  async close(): Promise<void> {
    this.closeNow();
    await this.queue.catch(() => {});
  }

  private closeNow(): void {
    const index = this.current;
    if (!index) return;
    this.current = null;
    index.controller.abort();
    // Close after any running pass notices the abort.
    this.queue = this.queue.catch(() => {}).then(() => index.db.close());
  }

  private require(): OpenIndex {
    if (!this.current) throw new AppError('no-vault', 'No vault is open.');
    return this.current;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue
      .catch(() => {})
      .then(async () => {
        this.passes++;
        try {
          return await work();
        } finally {
          this.passes--;
        }
      });
    this.queue = run.catch(() => {});
    return run;
  }

  private async refresh(index: OpenIndex, files: VaultFiles): Promise<IndexReport> {
    const started = performance.now();
    const { store } = index;
    const known = store.noteStates();
    const knownAttachments = store.attachmentStates();
    const update = this.newUpdate(index, known.size === 0);
    store.replaceFileWarnings(
      files.skipped.map(({ path, reason }) => ({ path, message: `Skipped: ${reason}.` })),
    );

    // An empty index parses every note: nothing to compare sizes and times with.
    const noteStats = known.size === 0 ? new Map<string, FileStat>() : await statAll(index.root, files.notes);
    const present = new Set(files.notes);
    update.deleteNotes([...known.keys()].filter((path) => !present.has(path)));
    const toParse = files.notes.filter((path) => {
      const before = known.get(path);
      // A note that could not be read is tried again: its permissions may have changed, not its time.
      return changedOnDisk(before, noteStats.get(path)) || before?.hash === unreadHash;
    });

    const attachmentStats = await statAll(index.root, files.attachments);
    const presentAttachments = new Set(files.attachments);
    update.deleteAttachments([...knownAttachments.keys()].filter((path) => !presentAttachments.has(path)));
    update.upsertAttachments(
      [...attachmentStats].filter(([path, now]) => changedOnDisk(knownAttachments.get(path), now)),
    );

    if (known.size === 0) update.startFullPass(toParse);
    const parsed = await update.parseNotes(toParse, known);
    await update.finish();
    const report = this.report(Math.round(performance.now() - started), parsed);
    if (this.current === index) {
      this.lastReport = report;
      this.reportStale = false;
    }
    return report;
  }

  private async applyBatch(index: OpenIndex, batch: FileEvent[]): Promise<void> {
    const { scope, removed, changed, firstEventAt } = summarizeBatch(batch);
    const known = index.store.noteStates(scope);
    const knownAttachments = index.store.attachmentStates(scope);
    const update = this.newUpdate(index, false);
    const removedNotes = [...known.keys()].filter(removed);
    update.deleteNotes(removedNotes);
    // A file left out with a warning (a symlink leading outside) and deleted since: no more warning.
    index.store.clearFileWarnings(scope.paths.filter(removed), scope.folders);
    for (const [path, reason] of skippedIn(batch))
      index.store.addFileWarning({ path, message: `Skipped: ${reason}.` });
    update.deleteAttachments([...knownAttachments.keys()].filter(removed));

    const attachmentStats = await statAll(
      index.root,
      changed.filter((path) => !isNotePath(path)),
    );
    update.upsertAttachments([...attachmentStats]);
    await update.parseNotes(
      changed.filter((path) => isNotePath(path)),
      known,
    );
    await update.finish();

    const renamed = this.renames.record(
      removedNotes.map((path) => ({ path, hash: known.get(path)?.hash ?? '' })),
      [...update.parsedHashes].filter(([path]) => !known.has(path)).map(([path, hash]) => ({ path, hash })),
    );
    if (this.current !== index) return;
    // Counted when next asked for: counting 100k links after every edit would delay the update.
    this.reportStale = true;
    const change: IndexChange = {
      paths: [...update.changedPaths],
      renamed,
      latencyMs: Date.now() - firstEventAt,
    };
    this.options.events.emit('index:changed', change);
  }

  private newUpdate(index: OpenIndex, full: boolean): IndexUpdate {
    return new IndexUpdate({
      root: index.root,
      store: index.store,
      resolutions: index.resolutions,
      resolver: index.resolver,
      aliases: index.aliases,
      workers: this.options.workers,
      signal: index.controller.signal,
      full,
      fileKeys,
      onProgress: (progress) => {
        if (this.current !== index) return;
        this.progress = progress;
        this.options.events.emit('index:progress', progress);
      },
    });
  }
}

/** The files a batch's last word about is that the vault left them out, with why. */
function skippedIn(batch: FileEvent[]): Map<string, string> {
  const last = new Map<string, string | undefined>();
  for (const event of batch) if (!event.type.endsWith('Dir')) last.set(event.path, event.skipped);
  return new Map([...last].filter((entry): entry is [string, string] => entry[1] !== undefined));
}
