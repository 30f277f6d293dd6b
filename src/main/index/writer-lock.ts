import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { IndexProgress } from '../../shared/index-domain';
import { tryExclusiveLock } from '../storage/database';

const writerStateSchema = z.object({
  /** Tells one holder of the lock from the next, in this process or another. */
  writer: z.string(),
  pid: z.number().int(),
  /** When this writer took the lock (ISO time). */
  startedAt: z.string(),
  progress: z.object({
    state: z.enum(['indexing', 'idle', 'cancelled']),
    done: z.number(),
    total: z.number(),
    etaMs: z.number().nullable(),
  }),
  /** Passes this writer finished: readers read again what they keep in memory when it moves. */
  passes: z.number().int(),
});

/** What the process writing an index tells the processes reading it, in `<index>.writer.json`. */
export type WriterState = z.infer<typeof writerStateSchema>;

const starting: IndexProgress = { state: 'indexing', done: 0, total: 0, etaMs: null };
const retryPublishMs = 100;
/** Readers look every 500 ms (IndexFollower): what they show is no older for publishing twice as often. */
const progressEveryMs = 250;

const lockFileOf = (indexFile: string) => `${indexFile}.lock`;
const stateFileOf = (indexFile: string) => `${indexFile}.writer.json`;

/**
 * The right to write one vault's index, held by one process (one VaultIndex in it) at a time: two writers
 * rebuilt each other's work (a cold index in progress looks interrupted to a second opener) and wrote
 * every row twice. The lock is the operating system's, through SQLite (see tryExclusiveLock), rather than
 * a file holding a pid: it goes with its process however that ends, so there is no stale lock to judge,
 * no pid reused by another program to mistake for the owner, and no race between two processes taking
 * over the same stale file. The holder publishes its progress beside it for the readers.
 */
export class WriterLock {
  private state: WriterState;
  private released = false;
  private retry: NodeJS.Timeout | null = null;
  /** When the state was last published, and the publication of a pass's progress held back meanwhile. */
  private publishedAt = 0;
  private held: NodeJS.Timeout | null = null;

  private constructor(
    readonly indexFile: string,
    private readonly unlock: () => void,
  ) {
    const startedAt = new Date().toISOString();
    this.state = { writer: randomUUID(), pid: process.pid, startedAt, progress: starting, passes: 0 };
    // At once: until a pass reports, readers are to wait for this writer, not read an index it may rebuild.
    this.publish();
  }

  /** Takes the writer lock of the index at `indexFile`, or returns null when another holds it. */
  static take(indexFile: string): WriterLock | null {
    const unlock = tryExclusiveLock(lockFileOf(indexFile));
    return unlock && new WriterLock(indexFile, unlock);
  }

  /**
   * Tells readers how the running pass is going, at most every progressEveryMs: each publication is a
   * write and a rename, a fiftieth of a cold index's main thread at the ten a second passes report.
   */
  progress(progress: IndexProgress): void {
    this.state = { ...this.state, progress };
    const wait = this.publishedAt + progressEveryMs - performance.now();
    if (wait <= 0) this.publish();
    else
      this.held ??= setTimeout(() => {
        this.held = null;
        this.publish();
      }, wait).unref();
  }

  /** Tells readers a pass ended, and how (idle, or cancelled). */
  passEnded(progress: IndexProgress): void {
    const settled: IndexProgress = progress.state === 'indexing' ? { ...progress, state: 'idle' } : progress;
    this.state = { ...this.state, progress: settled, passes: this.state.passes + 1 };
    this.publish();
  }

  /** Lets go of the lock; call once the last write is committed. */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.held) clearTimeout(this.held);
    try {
      // The state goes first: while the lock is held, no state means a writer still starting.
      const file = stateFileOf(this.indexFile);
      for (const path of [file, `${file}.${this.state.writer}`]) rmSync(path, { force: true });
    } finally {
      this.unlock();
    }
  }

  private publish(): void {
    if (this.released) return;
    if (this.held) clearTimeout(this.held);
    this.held = null;
    this.publishedAt = performance.now();
    const file = stateFileOf(this.indexFile);
    const temporary = `${file}.${this.state.writer}`;
    try {
      // Renamed into place, so that a reader never sees half a file.
      writeFileSync(temporary, JSON.stringify(this.state));
      renameSync(temporary, file);
    } catch {
      // Windows refuses to replace a file another process has open: the latest state is tried again
      // (into the same temporary file, so none is left behind).
      this.retry ??= setTimeout(() => {
        this.retry = null;
        this.publish();
      }, retryPublishMs).unref();
    }
  }
}

/** The state the writer of the index at `indexFile` last published, or null when there is none. */
export function readWriterState(indexFile: string): WriterState | null {
  let text: string;
  try {
    text = readFileSync(stateFileOf(indexFile), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = writerStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
