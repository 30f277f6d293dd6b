import type { IndexProgress, IndexReport, SearchPartial } from '../../shared/index-domain';
import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import { indexFileFor } from '../storage/index-database';
import { scanVault, type VaultFiles } from '../vault/vault-files';
import type { FileEvent } from '../vault/vault-watcher';
import { IndexFollower } from './index-follower';
import { applyBatch, missedEdits, refreshIndex, type PassOptions } from './index-passes';
import { IndexReads, reportOf } from './index-reads';
import type { IndexWorkers } from './index-workers';
import type { SearchRankers } from './note-search';
import { openIndex, type OpenIndex } from './open-index';
import { PassProfile } from './pass-profile';
import { PassQueue } from './pass-queue';
import { RenameDetector } from './rename-detector';
import { WriterLock } from './writer-lock';

export interface VaultIndexOptions {
  dataDir: string;
  events: AppEvents;
  workers: IndexWorkers;
  /** Shown to the user: an index that had to be rebuilt, and similar. */
  onNotice: (message: string) => void;
  /** How often a process reading another one's index looks at it (default 500 ms). */
  followPollMs?: number;
  /** Called once a pass that filled an empty index is over. */
  afterColdIndex?: () => void;
}

const idle: IndexProgress = { state: 'idle', done: 0, total: 0, etaMs: null };

/**
 * The derived index of the open vault: brought up to date on open (re-parsing only what changed), kept
 * exact as the watcher reports changes, and queried for links, backlinks, health and search. One process
 * at a time writes a vault's index (the holder of its WriterLock); another that opens the vault then reads
 * that index, follows its writer's passes, and takes the writing over when the writer goes away.
 */
export class VaultIndex extends IndexReads {
  private current: OpenIndex | null = null;
  /** Set while another process writes the open vault's index. */
  private follower: IndexFollower | null = null;
  private readonly passes = new PassQueue();
  private lastReport: IndexReport | null = null;
  /**
   * How the next report is counted, when first asked for: the last pass's, or the counts as they are
   * after a change (`recount`). Counting a 10k vault's 127k links took 12–22 ms of a `kasten search`,
   * which never asks, and after every edit would delay its update.
   */
  private pendingReport: (() => IndexReport) | null = null;
  private readonly recount = () => this.report(0, 0);
  private progress: IndexProgress = idle;
  /** How the running pass last reported, for the writer lock to publish when it ends. */
  private passProgress: IndexProgress = idle;
  private readonly renames = new RenameDetector();
  /** Notices about the open vault's index (see VaultHealth.notices). */
  private notices: string[] = [];
  /** Set while a pass fills an empty index: until it ends, searches see only the notes read so far. */
  private filling = false;
  /** Moves on every close: work queued for a vault closed since then finds out. */
  private generation = 0;

  constructor(private readonly options: VaultIndexOptions) {
    super();
  }

  /**
   * Opens the index of `root` and brings it up to date with `files`, or, when another process writes it,
   * waits for that one's pass; resolves when indexing is done (`status().report` says how it went).
   */
  open(root: string, files: VaultFiles): Promise<void> {
    const file = indexFileFor(this.options.dataDir, root);
    // The same vault again keeps its lock: letting go of it would let another process in between.
    const kept = this.current?.lock?.indexFile === file ? this.current.lock : null;
    if (this.current && kept) this.current.lock = null;
    this.closeNow();
    this.notices = [];
    this.lastReport = null;
    this.pendingReport = null;
    const generation = this.generation;
    const lock = kept ?? WriterLock.take(file);
    if (!lock) {
      this.follow(root, file);
      return this.whenIdle().then(() => {
        if (this.generation !== generation) throw new DOMException('The vault was closed.', 'AbortError');
      });
    }
    const index = this.openWriter(root, lock);
    this.current = index;
    return this.passes.run(async () => void (await this.refresh(index, files)));
  }

  /** Applies a batch of watcher events; resolves when the index reflects them (or its writer's will). */
  applyChanges(batch: FileEvent[]): Promise<void> {
    return this.whenWriting((index) => this.writeBatch(index, batch));
  }

  /**
   * Re-reads those of `paths` whose size or time on disk differ from the index's, after the passes
   * queued so far: notes edited after the pass read them and before the watcher reached them.
   */
  catchUp(paths: string[]): Promise<void> {
    return this.whenWriting(async (index) => {
      const missed = await missedEdits(index, paths);
      if (missed.length > 0 && this.current === index) await this.writeBatch(index, missed);
    });
  }

  /** Stops the running index pass; what was parsed so far stays, the rest is picked up next time. */
  cancel(): void {
    const index = this.current;
    // Another process's pass is that process's to stop.
    if (!index?.lock) return;
    index.controller.abort();
    index.controller = new AbortController();
  }

  /** Resolves once every queued index pass has finished, this process's or the writer's it reads. */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.passes.settled();
      const follower = this.follower;
      if (!follower?.busy) return;
      await follower.settled();
    }
  }

  /** Where indexing is, and the last pass's report (null until a pass of this process has ended). */
  status(): { progress: IndexProgress; report: IndexReport | null } {
    if (this.pendingReport && this.current) {
      this.lastReport = this.pendingReport();
      this.pendingReport = null;
    }
    return { progress: this.progress, report: this.lastReport };
  }

  /** Whether searches may be missing notes: a first index is running, or was cancelled (see SearchPartial). */
  searchPartial(): SearchPartial | null {
    const { state, done, total } = this.progress;
    if (state === 'cancelled' || (state === 'indexing' && this.filling)) {
      return { read: done, total, cancelled: state === 'cancelled' };
    }
    return null;
  }

  /** Whether this process writes the open vault's index (rather than reading another process's). */
  writes(): boolean {
    return this.current?.lock != null;
  }

  async close(): Promise<void> {
    this.closeNow();
    await this.passes.settled();
  }

  private closeNow(): void {
    this.generation++;
    if (this.follower) {
      this.follower.stop();
      this.follower = null;
      // The writer's pass this process showed is no longer this process's to show.
      if (this.progress.state === 'indexing') this.setProgress(idle);
    }
    const index = this.current;
    if (!index) return;
    this.current = null;
    index.controller.abort();
    // Close after any running pass notices the abort, and let go of the lock once nothing more is written.
    this.passes.after(() => {
      index.db.close();
      index.lock?.release();
    });
  }

  protected require(): OpenIndex {
    if (this.current) return this.current;
    const problem = this.follower?.problem;
    if (problem) throw new AppError('unsupported', problem);
    if (this.follower)
      throw new AppError(
        'no-vault',
        "Another Kasten process is creating this vault's index; try again soon.",
      );
    throw new AppError('no-vault', 'No vault is open.');
  }

  protected indexNotices(): string[] {
    return [...this.notices, ...(this.follower?.notices ?? [])];
  }

  protected rankers(index: OpenIndex): SearchRankers | null {
    // Workers share the ranking only between passes: a pass keeps its workers busy parsing, and its
    // write transaction open across slices, with rows their read connections cannot see yet.
    return !this.passes.running && !index.db.inTransaction ? this.options.workers : null;
  }

  /**
   * Queues `work` on the index if this process writes it when its turn comes: a follower that takes the
   * lock over meanwhile applies it after its catch-up pass; one that still follows leaves it to the writer.
   */
  private whenWriting(work: (index: OpenIndex) => Promise<void>): Promise<void> {
    const generation = this.generation;
    return this.passes.run(async () => {
      const index = this.current;
      if (this.generation === generation && index?.lock) await work(index);
    });
  }

  private openWriter(root: string, lock: WriterLock): OpenIndex {
    const notices = this.notices;
    return openIndex(root, lock, (message) => {
      notices.push(message);
      this.options.onNotice(message);
    });
  }

  private async refresh(index: OpenIndex, files: VaultFiles) {
    const started = performance.now();
    const cold = !index.catalog.hasNotes();
    this.filling = cold;
    const profile = new PassProfile();
    const { parsed, changedPaths } = await this.published(index, () =>
      refreshIndex(index, files, { ...this.passOptions(index), profile }),
    ).finally(() => {
      this.filling = false;
    });
    const ms = performance.now() - started;
    const measured = parsed > 0 ? profile.end(ms) : null;
    if (this.current === index) {
      this.pendingReport = () => {
        const report = reportOf(index, Math.round(ms), parsed);
        if (measured) report.profile = measured;
        return report;
      };
      this.lastReport = null;
    }
    if (cold && parsed > 0) this.options.afterColdIndex?.();
    return { changedPaths };
  }

  private async writeBatch(index: OpenIndex, batch: FileEvent[]): Promise<void> {
    const outcome = await this.published(index, () => applyBatch(index, batch, this.passOptions(index)));
    const renamed = this.renames.record(outcome.removedNotes, outcome.addedNotes);
    if (this.current !== index) return;
    this.pendingReport = this.recount;
    const latencyMs = Date.now() - outcome.firstEventAt;
    this.options.events.emit('index:changed', { paths: outcome.changedPaths, renamed, latencyMs });
  }

  /** Runs a pass of the writer, and tells the processes reading the index when it ends. */
  private async published<T>(index: OpenIndex, pass: () => Promise<T>): Promise<T> {
    this.passProgress = idle;
    try {
      return await pass();
    } finally {
      index.lock?.passEnded(this.passProgress);
    }
  }

  private passOptions(index: OpenIndex): PassOptions {
    return {
      workers: this.options.workers,
      onProgress: (progress) => {
        this.passProgress = progress;
        if (progress.state === 'indexing') index.lock?.progress(progress);
        if (this.current === index) this.setProgress(progress);
      },
    };
  }

  private setProgress(progress: IndexProgress): void {
    this.progress = progress;
    this.options.events.emit('index:progress', progress);
  }

  /** Reads the index another process writes, until that one goes away. */
  private follow(root: string, indexFile: string): void {
    const generation = this.generation;
    this.follower = new IndexFollower({
      root,
      indexFile,
      pollMs: this.options.followPollMs,
      onOpened: (index) => {
        const previous = this.current;
        this.current = index;
        this.pendingReport = this.recount;
        previous?.db.close();
      },
      onChanged: () => {
        this.pendingReport = this.recount;
        // Which notes changed is the writer's to know; everything read from the index may differ.
        this.options.events.emit('index:changed', { paths: [], renamed: [], latencyMs: 0 });
      },
      onProgress: (progress) => {
        if (!sameProgress(progress, this.progress)) this.setProgress(progress);
      },
      onNotice: this.options.onNotice,
      onTakeover: (lock) => this.takeOver(root, lock, generation),
    });
    this.follower.start();
  }

  /** The writer went away: this process writes the index from now on, starting with what changed meanwhile. */
  private takeOver(root: string, lock: WriterLock, generation: number): void {
    this.follower = null;
    void this.passes.run(async () => {
      let index: OpenIndex | null = null;
      try {
        // The vault as it is now: this process only read the index while files changed.
        const files = await scanVault(root);
        if (this.generation !== generation) return lock.release();
        const followed = this.current;
        index = this.openWriter(root, lock);
        this.current = index;
        followed?.db.close();
        const { changedPaths } = await this.refresh(index, files);
        if (this.current === index && changedPaths.length > 0)
          this.options.events.emit('index:changed', { paths: changedPaths, renamed: [], latencyMs: 0 });
      } catch (error) {
        if (!index) lock.release();
        if ((error as Error).name !== 'AbortError')
          this.options.onNotice(`Indexing ${root} failed: ${(error as Error).message}`);
      }
    });
  }
}

function sameProgress(a: IndexProgress, b: IndexProgress): boolean {
  return a.state === b.state && a.done === b.done && a.total === b.total && a.etaMs === b.etaMs;
}
