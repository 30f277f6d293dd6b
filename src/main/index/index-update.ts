import { availableParallelism } from 'node:os';
import type { IndexProgress } from '../../shared/index-domain';
import type { VaultLinkResolver } from '../../shared/links/link-resolver';
import type { FileStat } from './file-stats';
import type { FileState, IndexStore, PendingLink } from './index-store';
import {
  sameResolution,
  storedResolution,
  type LinkResolutionRow,
  type LinkResolutions,
  type StoredResolution,
} from './link-resolutions';
import type { ParseOutcome } from './parsed-note';
import type { ParserPool } from './parser-pool';
import { createLookupIndexes, dropLookupIndexes } from '../storage/index-database';

export interface IndexUpdateOptions {
  root: string;
  store: IndexStore;
  resolutions: LinkResolutions;
  resolver: VaultLinkResolver;
  aliases: Map<string, string[]>;
  pool: ParserPool;
  signal: AbortSignal;
  /** Re-resolve every link at the end rather than only those the changes can affect. */
  full: boolean;
  fileKeys: (path: string, aliases: string[]) => string[];
  onProgress: (progress: IndexProgress) => void;
}

const notesPerTask = 64;
const tasksInFlight = Math.max(2, availableParallelism() * 2);
const resolutionsPerPage = 500;
const progressEveryMs = 100;
/**
 * The longest the main thread writes before it lets requests through. Worker results can arrive
 * together (the pool drains its queue in one go), so writes are serialized and cut into slices of this
 * length, each in its own transaction and its own turn of the event loop.
 */
const writeSliceMs = 16;
/**
 * Slices share one transaction for this long before it commits. Every commit writes the slice's pages to
 * the WAL and flushes full-text terms into a new segment that FTS5 later merges: committing each 16 ms
 * slice spent a tenth of a cold index in commits. Requests on this connection see the uncommitted rows.
 */
const commitEveryMs = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One pass over a set of changed files: deletes, parses (in the worker pool) and writes notes, then
 * re-resolves exactly the links those changes can affect. Writes happen in short transactions between
 * awaits, so requests keep being answered while a large vault is indexed.
 */
export class IndexUpdate {
  /** Paths an incremental pass changed (a full pass does not collect them). */
  readonly changedPaths = new Set<string>();
  private readonly keys = new Set<string>();
  /** Content hash of every note parsed in this pass. */
  readonly parsedHashes = new Map<string, string>();
  private lastProgress = 0;
  /** The chain of pending writes: one slice at a time, whichever worker's results it holds. */
  private writes: Promise<void> = Promise.resolve();
  /**
   * A full pass: links whose resolution may still change when the rest of the vault is parsed (see
   * defer), written once resolved at the end. Written as they came and rewritten at the end,
   * they cost a tenth of a 10k-note vault's cold index in reading back, resolving twice and updating.
   */
  private deferred: PendingLink[] = [];
  /** A note announced in advance turned out not to exist: every link is re-resolved at the end. */
  private resolveAll = false;
  /** When the open write transaction began, or null when none is open. */
  private batchStarted: number | null = null;

  constructor(private readonly options: IndexUpdateOptions) {}

  deleteNotes(paths: string[]): void {
    if (paths.length === 0) return;
    const { store, resolver, aliases } = this.options;
    store.db.transaction(() => {
      for (const path of paths) {
        this.noteKeysChanged(path);
        store.deleteNote(path);
        resolver.removeNote(path);
        aliases.delete(path);
      }
    })();
  }

  deleteAttachments(paths: string[]): void {
    if (paths.length === 0) return;
    const { store, resolver } = this.options;
    store.db.transaction(() => {
      for (const path of paths) {
        this.attachmentChanged(path);
        store.deleteAttachment(path);
        resolver.removeAttachment(path);
      }
    })();
  }

  upsertAttachments(entries: [string, FileStat][]): void {
    if (entries.length === 0) return;
    const { store, resolver } = this.options;
    store.db.transaction(() => {
      for (const [path, { size, mtimeMs }] of entries) {
        this.attachmentChanged(path);
        store.upsertAttachment(path, size, mtimeMs);
        resolver.addAttachment(path);
      }
    })();
  }

  /**
   * Starts a full pass over an empty index: tells the resolver about the notes before they are parsed
   * (names only), so that most links resolve as they are written and few need rewriting at the end, and
   * drops the lookup indexes, which finish() builds once everything is written.
   */
  startFullPass(paths: string[]): void {
    for (const path of paths) this.options.resolver.setNote({ path, aliases: [], headings: [], blocks: [] });
    dropLookupIndexes(this.options.store.db);
  }

  /** Parses `paths` in the pool and writes each note; returns how many were parsed. */
  async parseNotes(paths: string[], known: Map<string, FileState>): Promise<number> {
    const { pool, root, signal } = this.options;
    const total = paths.length;
    const started = performance.now();
    let done = 0;
    this.report({ state: 'indexing', done, total, etaMs: null }, true);
    const tasks: string[][] = [];
    for (let start = 0; start < total; start += notesPerTask)
      tasks.push(paths.slice(start, start + notesPerTask));

    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const task = tasks[next++]!;
        const outcomes = await pool.parse({ root, paths: task }, signal);
        signal.throwIfAborted();
        await this.write(outcomes, known);
        done += task.length;
        const elapsed = performance.now() - started;
        const etaMs = done >= 64 ? Math.round((elapsed / done) * (total - done)) : null;
        this.report({ state: 'indexing', done, total, etaMs }, done === total);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(tasksInFlight, tasks.length) }, worker));
    } catch (error) {
      await this.endWrites();
      if (!signal.aborted) throw error;
      await this.finish();
      this.report({ state: 'cancelled', done, total, etaMs: null }, true);
      throw error;
    }
    await this.endWrites();
    return total;
  }

  /** Re-resolves the links the changes can affect, and reports the pass as done. */
  async finish(): Promise<void> {
    const { store, resolutions, resolver, full } = this.options;
    // Pages of links, a turn of the event loop each, so requests are answered meanwhile.
    const { deferred } = this;
    this.deferred = [];
    for (let offset = 0; offset < deferred.length; offset += resolutionsPerPage) {
      store.db.transaction(() => {
        for (const pending of deferred.slice(offset, offset + resolutionsPerPage))
          store.insertLink(pending, storedResolution(resolver.resolve(pending.link, pending.source)));
      })();
      await nextTurn();
    }
    // Links were resolved as they were written; only those that depended on changed notes can change.
    const scoped = full ? null : resolutions.linksToResolve({ keys: this.keys, paths: this.changedPaths });
    let afterId = 0;
    for (let offset = 0; scoped || this.resolveAll; offset += resolutionsPerPage) {
      const links = scoped
        ? scoped.slice(offset, offset + resolutionsPerPage)
        : resolutions.linksPage(afterId, resolutionsPerPage);
      if (links.length === 0) break;
      afterId = links.at(-1)!.id;
      const rows: LinkResolutionRow[] = [];
      for (const link of links) {
        const now = storedResolution(resolver.resolve(link, link.source));
        if (!sameResolution(link, now)) rows.push({ id: link.id, ...now });
      }
      if (rows.length > 0) store.db.transaction(() => resolutions.updateResolutions(rows))();
      await nextTurn();
    }
    // After the resolutions, so that writing them does not also update the indexes.
    if (full) createLookupIndexes(store.db);
    if (!this.options.signal.aborted) this.report({ state: 'idle', done: 0, total: 0, etaMs: null }, true);
  }

  /** Queues `outcomes` for writing; resolves once all of them are written (or the pass is cancelled). */
  private write(outcomes: ParseOutcome[], known: Map<string, FileState>): Promise<void> {
    const { store, signal } = this.options;
    const run = this.writes.then(async () => {
      let next = 0;
      while (next < outcomes.length) {
        await nextTurn();
        signal.throwIfAborted();
        const deadline = performance.now() + writeSliceMs;
        if (this.batchStarted === null) {
          store.db.exec('BEGIN');
          this.batchStarted = performance.now();
        }
        // No savepoint per slice: releasing one makes FTS5 flush its pending terms, as a commit does. A
        // slice that throws rolls the whole batch back; those notes are parsed again next time.
        try {
          do this.writeOutcome(outcomes[next++]!, known);
          while (next < outcomes.length && performance.now() < deadline);
        } catch (error) {
          this.batchStarted = null;
          store.db.exec('ROLLBACK');
          throw error;
        }
        this.commit(false);
      }
    });
    this.writes = run.catch(() => {});
    return run;
  }

  /** Waits for the queued writes and commits them. */
  private async endWrites(): Promise<void> {
    await this.writes;
    this.commit(true);
  }

  /** Commits the open write transaction when it is due (or `now`). */
  private commit(now: boolean): void {
    if (this.batchStarted === null) return;
    if (!now && performance.now() - this.batchStarted < commitEveryMs) return;
    this.batchStarted = null;
    this.options.store.db.exec('COMMIT');
  }

  private writeOutcome(outcome: ParseOutcome, known: Map<string, FileState>): void {
    const { store, resolver, aliases, full } = this.options;
    if (!outcome.ok) {
      // A note announced in advance (see startFullPass) that could not be read is not in the index, and
      // links already written may have resolved to it.
      if (!store.hasNote(outcome.path)) {
        resolver.removeNote(outcome.path);
        this.resolveAll = true;
      }
      if (outcome.vanished) {
        if (store.deleteNote(outcome.path)) {
          this.noteKeysChanged(outcome.path);
          resolver.removeNote(outcome.path);
          aliases.delete(outcome.path);
        }
      } else {
        store.addFileWarning({ path: outcome.path, message: outcome.message });
      }
      return;
    }
    const { note } = outcome;
    this.parsedHashes.set(note.path, note.hash);
    // A full pass starts with only the scan's file warnings (replaceFileWarnings): none is a note's.
    if (!full) store.clearFileWarning(note.path);
    const before = known.get(note.path);
    if (!full && before?.hash === note.hash) {
      store.touchNote(note.path, note.size, note.mtimeMs);
      return;
    }
    this.noteKeysChanged(note.path);
    const { aliases: noteAliases, headings, blocks } = note.facts;
    resolver.setNote({ path: note.path, aliases: noteAliases, headings, blocks });
    store.writeNote(note, {
      resolve: (link) => storedResolution(resolver.resolve(link, note.path)),
      isNew: full && !before,
      defer: full ? (pending, resolution) => this.defer(pending, resolution) : undefined,
    });
    aliases.set(note.path, noteAliases);
    this.noteKeysChanged(note.path);
  }

  /**
   * In a full pass every note's name is known from the start (startFullPass), but a note's aliases,
   * headings and blocks only once it is parsed. So a link written resolved by name stays as it is; one
   * that is broken or resolved through an alias may yet find (another) note by alias, and one with a
   * subpath into a note not parsed yet has not been checked against that note's headings.
   */
  private defer(pending: PendingLink, resolution: StoredResolution): boolean {
    const { link } = pending;
    const provisional =
      resolution.status === 'broken' ||
      resolution.viaAlias === 1 ||
      (link.subpath !== null && resolution.resolved !== null && !this.parsedHashes.has(resolution.resolved));
    if (provisional) this.deferred.push(pending);
    return provisional;
  }

  /** Records the keys a note answers to (call before and after it changes). */
  private noteKeysChanged(path: string): void {
    // A full pass resolves as it writes and re-resolves by itself (finish): no keys to collect.
    if (this.options.full) return;
    this.changedPaths.add(path);
    for (const key of this.options.fileKeys(path, this.options.aliases.get(path) ?? [])) this.keys.add(key);
  }

  private attachmentChanged(path: string): void {
    if (this.options.full) return;
    this.changedPaths.add(path);
    for (const key of this.options.fileKeys(path, [])) this.keys.add(key);
  }

  private report(progress: IndexProgress, force: boolean): void {
    const now = performance.now();
    if (!force && now - this.lastProgress < progressEveryMs) return;
    this.lastProgress = now;
    this.options.onProgress(progress);
  }
}
