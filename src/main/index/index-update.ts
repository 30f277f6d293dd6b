import { availableParallelism } from 'node:os';
import type { IndexProgress } from '../../shared/index-domain';
import type { LinkOccurrence } from '../../shared/markdown/note-links';
import type { FileStat } from './file-stats';
import type { FileState, IndexStore } from './index-store';
import {
  sameResolution,
  storedResolution,
  type LinkResolutionRow,
  type LinkResolutions,
  type LinkToResolve,
  type StoredResolution,
} from './link-resolutions';
import type { ParsedBatch, ParseOutcome } from './parsed-note';
import type { IndexWorkers } from './index-workers';
import type { LinkNames } from './link-names';
import type { PassProfile } from './pass-profile';
import { createLookupIndexes, dropLookupIndexes } from '../storage/index-database';
import { nextTurn, SlicedWrites } from './sliced-writes';

export interface IndexUpdateOptions {
  root: string;
  store: IndexStore;
  resolutions: LinkResolutions;
  /** Read when first needed: a pass that changes nothing resolves no link. */
  names: LinkNames;
  workers: IndexWorkers;
  signal: AbortSignal;
  /** Re-resolve every link at the end rather than only those the changes can affect. */
  full: boolean;
  fileKeys: (path: string, aliases: string[]) => string[];
  onProgress: (progress: IndexProgress) => void;
  /** Where the pass's time goes, when it is measured. */
  profile?: PassProfile;
}

const notesPerTask = 64;
/**
 * The notes the main thread parses at a time when it has nothing to write: a few milliseconds, so that
 * requests and the workers' results wait no longer than that.
 */
const notesPerTaskHere = 8;
const tasksInFlight = Math.max(2, availableParallelism() * 2);
const resolutionsPerPage = 500;
const progressEveryMs = 100;
/**
 * One pass over a set of changed files: deletes, parses (in the index workers) and writes notes, then
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
  /**
   * A full pass: the row ids of links whose resolution may still change when the rest of the vault is
   * parsed (see provisional), resolved again at the end. Written at once with what they resolve to so
   * far, so that only their ids wait: kept whole (text, context and all) until the end, they were most
   * of what a 50k-note cold index held in memory (half the links of the synthetic vault have a subpath).
   */
  private provisional: number[] = [];
  /** A note announced in advance turned out not to exist: every link is re-resolved at the end. */
  private resolveAll = false;
  private readonly writes: SlicedWrites;

  constructor(private readonly options: IndexUpdateOptions) {
    this.writes = new SlicedWrites(options.store.db, options.signal, options.profile ?? null);
  }

  deleteNotes(paths: string[]): void {
    if (paths.length === 0) return;
    const { store, names } = this.options;
    const { resolver, aliases } = names;
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
    const { store } = this.options;
    const { resolver } = this.options.names;
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
    const { store } = this.options;
    const { resolver } = this.options.names;
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
    const { resolver } = this.options.names;
    for (const path of paths) resolver.setNote({ path, aliases: [], headings: [], blocks: [], unread: true });
    dropLookupIndexes(this.options.store.db);
  }

  /**
   * Parses `paths` in the index workers and writes each note; returns how many were parsed. The main
   * thread writes what the workers parse, and parses a few notes itself whenever nothing waits to be
   * written: on two cores it was otherwise idle a third of a cold index, waiting for the worker.
   */
  async parseNotes(paths: string[], known: Map<string, FileState>): Promise<number> {
    const { workers, root, signal, profile } = this.options;
    const total = paths.length;
    const started = performance.now();
    let done = 0;
    this.report({ state: 'indexing', done, total, etaMs: null }, true);
    let next = 0;
    const take = (count: number) => paths.slice(next, (next += count));
    const write = async (batch: ParsedBatch) => {
      profile?.add('read', batch.readMs);
      profile?.add('parse', batch.parseMs);
      await this.writes.write(batch.outcomes, (outcome) => this.writeOutcome(outcome, known));
      done += batch.outcomes.length;
      const elapsed = performance.now() - started;
      const etaMs = done >= 64 ? Math.round((elapsed / done) * (total - done)) : null;
      this.report({ state: 'indexing', done, total, etaMs }, done === total);
    };
    const inWorkers = async () => {
      while (next < total) {
        const batch = await workers.parse({ root, paths: take(notesPerTask) }, signal);
        signal.throwIfAborted();
        await write(batch);
      }
    };
    const parseHere = workers.parseHere;
    const here = async () => {
      while (parseHere && next < total) {
        // The workers' results first: those that arrived meanwhile queue their writes in this turn.
        await this.writes.drained();
        await nextTurn();
        signal.throwIfAborted();
        if (!this.writes.idle || next >= total) continue;
        const mainStarted = performance.now();
        const batch = parseHere({ root, paths: take(notesPerTaskHere) });
        profile?.add('parseOnMain', performance.now() - mainStarted);
        await write(batch);
      }
    };
    // A pass of one task's notes or fewer (an edit, a small vault) is parsed here alone: starting the
    // pool, or a round trip to it, costs more than parsing them.
    const loops =
      parseHere && total <= notesPerTask ? 0 : Math.min(tasksInFlight, Math.ceil(total / notesPerTask));
    try {
      await Promise.all([...Array.from({ length: loops }, inWorkers), here()]);
    } catch (error) {
      await this.writes.end();
      if (!signal.aborted) throw error;
      await this.finish();
      this.report({ state: 'cancelled', done, total, etaMs: null }, true);
      throw error;
    }
    await this.writes.end();
    return total;
  }

  /** Re-resolves the links the changes can affect, and reports the pass as done. */
  async finish(): Promise<void> {
    const { store, resolutions, full, profile } = this.options;
    const settleStarted = performance.now();
    // Pages of links, a turn of the event loop each, so requests are answered meanwhile.
    for (let offset = 0; offset < this.provisional.length; offset += resolutionsPerPage) {
      const links = resolutions.linksById(this.provisional.slice(offset, offset + resolutionsPerPage));
      this.resolveAgain(links);
      await nextTurn();
    }
    this.provisional = [];
    // Links were resolved as they were written; only those that depended on changed notes can change.
    const scoped = full ? null : resolutions.linksToResolve({ keys: this.keys, paths: this.changedPaths });
    let afterId = 0;
    for (let offset = 0; scoped || this.resolveAll; offset += resolutionsPerPage) {
      const links = scoped
        ? scoped.slice(offset, offset + resolutionsPerPage)
        : resolutions.linksPage(afterId, resolutionsPerPage);
      if (links.length === 0) break;
      afterId = links.at(-1)!.id;
      this.resolveAgain(links);
      await nextTurn();
    }
    profile?.add('settle', performance.now() - settleStarted);
    // After the resolutions, so that writing them does not also update the indexes.
    const indexesStarted = performance.now();
    if (full) createLookupIndexes(store.db);
    profile?.add('indexes', performance.now() - indexesStarted);
    if (!this.options.signal.aborted) this.report({ state: 'idle', done: 0, total: 0, etaMs: null }, true);
  }

  /** Resolves `links` against the vault as it is now, and writes those whose resolution changed. */
  private resolveAgain(links: LinkToResolve[]): void {
    const { store, resolutions, names } = this.options;
    const { resolver } = names;
    const rows: LinkResolutionRow[] = [];
    for (const link of links) {
      const now = storedResolution(resolver.resolve(link, link.source));
      if (!sameResolution(link, now)) rows.push({ id: link.id, ...now });
    }
    if (rows.length > 0) store.db.transaction(() => resolutions.updateResolutions(rows))();
  }

  private writeOutcome(outcome: ParseOutcome, known: Map<string, FileState>): void {
    const { store, full } = this.options;
    const { resolver, aliases } = this.options.names;
    if (!outcome.ok) {
      // A note announced in advance (see startFullPass) that could not be read is not in the index, and
      // links already written may have resolved to it.
      if (!store.hasNote(outcome.path)) {
        resolver.removeNote(outcome.path);
        this.resolveAll = true;
      }
      if (outcome.vanished || outcome.skipped) {
        if (outcome.skipped) store.addFileWarning({ path: outcome.path, message: outcome.message });
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
      written: full ? (id, link, resolution) => this.settleLater(id, link, resolution) : undefined,
      profile: this.options.profile,
    });
    aliases.set(note.path, noteAliases);
    this.noteKeysChanged(note.path);
  }

  /**
   * In a full pass every note's name is known from the start (startFullPass), but a note's aliases,
   * headings and blocks only once it is parsed. So a link written resolved by name stays as it is; one
   * that is broken may yet name (another) note's alias, which its reason tells, and one with a subpath
   * into a note not parsed yet has not been checked against that note's headings.
   */
  private settleLater(id: number, link: LinkOccurrence, resolution: StoredResolution): void {
    const provisional =
      resolution.status === 'broken' ||
      (link.subpath !== null && resolution.resolved !== null && !this.parsedHashes.has(resolution.resolved));
    if (provisional) this.provisional.push(id);
  }

  /** Records the keys a note answers to (call before and after it changes). */
  private noteKeysChanged(path: string): void {
    // A full pass resolves as it writes and re-resolves by itself (finish): no keys to collect.
    if (this.options.full) return;
    this.changedPaths.add(path);
    for (const key of this.options.fileKeys(path, this.options.names.aliases.get(path) ?? []))
      this.keys.add(key);
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
