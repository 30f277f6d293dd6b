import type { SqliteDatabase } from '../storage/database';
import type { PassProfile } from './pass-profile';

/**
 * The longest the main thread writes before it lets requests through. Worker results can arrive
 * together (the pool drains its queue in one go), so writes are serialized and cut into slices of this
 * length, each in its own turn of the event loop.
 */
const writeSliceMs = 16;
/**
 * Slices share one transaction for this long before it commits. Every commit writes the slice's pages to
 * the WAL and flushes full-text terms into a new segment that FTS5 later merges: committing each 16 ms
 * slice spent a tenth of a cold index in commits. Requests on this connection see the uncommitted rows.
 */
const commitEveryMs = 1000;

/** Resolves on the next turn of the event loop, after pending I/O callbacks (requests) have run. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes on the main thread in short slices, so requests keep being answered during a large write. */
export class SlicedWrites {
  /** The chain of pending writes: one slice at a time, whichever caller's items it holds. */
  private chain: Promise<void> = Promise.resolve();
  /** When the open write transaction began, or null when none is open. */
  private batchStarted: number | null = null;
  /** Calls of write() not finished yet. */
  private queued = 0;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly signal: AbortSignal,
    private readonly profile: PassProfile | null = null,
  ) {}

  /** Whether nothing is waiting to be written. */
  get idle(): boolean {
    return this.queued === 0;
  }

  /** Queues `items` for `writeOne`; resolves once all of them are written (or the signal aborts). */
  write<Item>(items: readonly Item[], writeOne: (item: Item) => void): Promise<void> {
    this.queued++;
    const run = this.chain.then(async () => {
      let next = 0;
      while (next < items.length) {
        await nextTurn();
        this.signal.throwIfAborted();
        const deadline = performance.now() + writeSliceMs;
        if (this.batchStarted === null) {
          // IMMEDIATE: a transaction that reads before it writes fails at once, busy timeout or not, when
          // another connection (embeddings in a process reading this index) committed in between.
          this.exec('BEGIN IMMEDIATE');
          this.batchStarted = performance.now();
        }
        // No savepoint per slice: releasing one makes FTS5 flush its pending terms, as a commit does. A
        // slice that throws rolls the whole batch back; those notes are parsed again next time.
        try {
          do writeOne(items[next++]!);
          while (next < items.length && performance.now() < deadline);
        } catch (error) {
          this.batchStarted = null;
          this.db.exec('ROLLBACK');
          throw error;
        }
        this.commit(false);
      }
    });
    this.chain = run.catch(() => {});
    return run.finally(() => {
      this.queued--;
    });
  }

  /** Resolves once everything queued so far is written, failed or not. */
  async drained(): Promise<void> {
    await this.chain;
  }

  /** Waits for the queued writes and commits them. */
  async end(): Promise<void> {
    await this.chain;
    this.commit(true);
  }

  /** Commits the open write transaction when it is due (or `now`). */
  private commit(now: boolean): void {
    if (this.batchStarted === null) return;
    if (!now && performance.now() - this.batchStarted < commitEveryMs) return;
    this.batchStarted = null;
    this.exec('COMMIT');
  }

  private exec(sql: string): void {
    if (this.profile) this.profile.time('commits', () => this.db.exec(sql));
    else this.db.exec(sql);
  }
}
