import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type {
  IndexChange,
  NoteInfo,
  NoteTitle,
  IndexProgress,
  IndexReport,
  ResolvedLink,
  SearchHit,
  SearchRequest,
  TagCount,
  VaultHealth,
} from '../../shared/index-domain';
import { VaultLinkResolver, fileKeys, linkKey } from '../../shared/links/link-resolver';
import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import type { SqliteDatabase } from '../storage/database';
import { dropLookupIndexes, indexFileFor, openIndexDatabase } from '../storage/index-database';
import type { VaultFiles } from '../vault/vault-files';
import { isNotePath } from '../vault/vault-files';
import type { FileEvent } from '../vault/vault-watcher';
import { IndexStore } from './index-store';
import { NoteCatalog, type NoteHash } from './note-catalog';
import { NoteSearch } from './note-search';
import { RenameDetector } from './rename-detector';
import type { ParserPool } from './parser-pool';
import { IndexUpdate, type FileStat } from './index-update';
import { linksInNote } from './links-in-note';

export interface VaultIndexOptions {
  dataDir: string;
  events: AppEvents;
  pool: ParserPool;
  /** Shown to the user: an index that had to be rebuilt, and similar. */
  onNotice: (message: string) => void;
}

interface OpenIndex {
  root: string;
  db: SqliteDatabase;
  store: IndexStore;
  search: NoteSearch;
  catalog: NoteCatalog;
  resolver: VaultLinkResolver;
  /** Aliases per note path, to know which keys a note answered to before it changed. */
  aliases: Map<string, string[]>;
  controller: AbortController;
}

const statSliceMs = 8;

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

  constructor(private readonly options: VaultIndexOptions) {}

  /** Opens the index of `root` and brings it up to date with `files`; resolves when indexing is done. */
  open(root: string, files: VaultFiles): Promise<IndexReport> {
    this.closeNow();
    const db = openIndexDatabase(indexFileFor(this.options.dataDir, root), this.options.onNotice);
    const store = new IndexStore(db, linkKey);
    const resolverNotes = store.resolverNotes();
    const index: OpenIndex = {
      root,
      db,
      store,
      search: new NoteSearch(db),
      catalog: new NoteCatalog(db),
      resolver: new VaultLinkResolver(resolverNotes, store.attachmentStates().keys()),
      aliases: new Map(resolverNotes.map((note) => [note.path, note.aliases])),
      controller: new AbortController(),
    };
    this.current = index;
    return this.enqueue(() => this.refresh(index, files));
  }

  /** Applies a batch of watcher events; resolves when the index reflects them. */
  applyChanges(batch: FileEvent[]): Promise<void> {
    const index = this.current;
    if (!index) return Promise.resolve();
    return this.enqueue(() => this.applyBatch(index, batch));
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
    const { store } = this.require();
    return { ...store.counts(), warnings: store.warnings(), parsed, ms };
  }

  links(options: { broken?: boolean } = {}): ResolvedLink[] {
    return this.require().store.links(options.broken ? ['broken', 'broken-subpath'] : undefined);
  }

  outgoing(path: string): ResolvedLink[] {
    return this.require().store.outgoing(path);
  }

  backlinks(path: string): ResolvedLink[] {
    return this.require().store.backlinks(path);
  }

  health(): VaultHealth {
    const { store } = this.require();
    return {
      broken: store.links(['broken']),
      ambiguous: store.links(['ambiguous']),
      brokenSubpaths: store.links(['broken-subpath']),
      warnings: store.warnings(),
    };
  }

  search(request: SearchRequest): SearchHit[] {
    return this.require().search.search(request);
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
    const run = this.queue.catch(() => {}).then(work);
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
      const now = noteStats.get(path);
      return !before || !now || before.size !== now.size || before.mtimeMs !== now.mtimeMs;
    });

    const attachmentStats = await statAll(index.root, files.attachments);
    const presentAttachments = new Set(files.attachments);
    update.deleteAttachments([...knownAttachments.keys()].filter((path) => !presentAttachments.has(path)));
    update.upsertAttachments(
      [...attachmentStats].filter(([path, now]) => {
        const before = knownAttachments.get(path);
        return !before || before.size !== now.size || before.mtimeMs !== now.mtimeMs;
      }),
    );

    if (known.size === 0) {
      update.announceNotes(toParse);
      dropLookupIndexes(store.db);
    }
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
    const finalType = new Map<string, FileEvent['type']>();
    const removedDirs: string[] = [];
    for (const event of batch) {
      if (event.type === 'unlinkDir') removedDirs.push(event.path);
      else if (event.type !== 'addDir') finalType.set(event.path, event.type);
    }
    const scope = { paths: [...finalType.keys()], folders: removedDirs };
    const known = index.store.noteStates(scope);
    const knownAttachments = index.store.attachmentStates(scope);
    const update = this.newUpdate(index, false);
    const removed = (path: string) =>
      finalType.get(path) === 'unlink' ||
      (!finalType.has(path) && removedDirs.some((dir) => path.startsWith(`${dir}/`)));
    const removedNotes = [...known.keys()].filter(removed);
    update.deleteNotes(removedNotes);
    update.deleteAttachments([...knownAttachments.keys()].filter(removed));

    const changed = [...finalType].filter(([, type]) => type !== 'unlink').map(([path]) => path);
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
    const firstEvent = Math.min(...batch.map((event) => event.at));
    const change: IndexChange = {
      paths: [...update.changedPaths],
      renamed,
      latencyMs: Date.now() - firstEvent,
    };
    this.options.events.emit('index:changed', change);
  }

  private newUpdate(index: OpenIndex, full: boolean): IndexUpdate {
    return new IndexUpdate({
      root: index.root,
      store: index.store,
      resolver: index.resolver,
      aliases: index.aliases,
      pool: this.options.pool,
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

/**
 * Size and mtime of each file; files that vanished meanwhile are left out. Synchronous calls in slices of
 * a few milliseconds: a promise per file cost a thread-pool round trip each (300 ms for 10k notes,
 * against 40 ms), and the slices still let requests through.
 */
async function statAll(root: string, paths: string[]): Promise<Map<string, FileStat>> {
  const stats = new Map<string, FileStat>();
  let next = 0;
  while (next < paths.length) {
    const deadline = performance.now() + statSliceMs;
    do {
      const path = paths[next++]!;
      const info = statOrNull(join(root, ...path.split('/')));
      if (info?.isFile()) stats.set(path, { size: info.size, mtimeMs: info.mtimeMs });
    } while (next < paths.length && performance.now() < deadline);
    if (next < paths.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return stats;
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null; // unreadable or no longer a file: left for the parse to report
  }
}
