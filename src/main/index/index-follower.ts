import { statSync } from 'node:fs';
import type { IndexProgress } from '../../shared/index-domain';
import type { SqliteDatabase } from '../storage/database';
import { lookupIndexesBuilt, openIndexForReading } from '../storage/index-database';
import { indexOver, type OpenIndex } from './open-index';
import { readWriterState, WriterLock, type WriterState } from './writer-lock';

export interface IndexFollowerOptions {
  root: string;
  indexFile: string;
  /** An index to read: the first, or a new one after the writer replaced the file (a rebuild). */
  onOpened: (index: OpenIndex) => void;
  /** The writer finished a pass; the index's resolver has been read again. */
  onChanged: () => void;
  onProgress: (progress: IndexProgress) => void;
  /** Told once, when the index turns out to be another process's to finish first. */
  onNotice: (message: string) => void;
  /** The writer went away and this process holds the lock now; the follower has stopped. */
  onTakeover: (lock: WriterLock) => void;
  /** How often it looks at the writer (default 500 ms). */
  pollMs?: number;
}

const starting: IndexProgress = { state: 'indexing', done: 0, total: 0, etaMs: null };
const idle: IndexProgress = { state: 'idle', done: 0, total: 0, etaMs: null };

/**
 * Follows the index another process writes: opens it when it can be read, tells when the writer finished
 * a pass, and takes the lock over when the writer goes away. It looks every half second rather than
 * watching files: the writer's commits and state file change many times a second during a pass, and
 * only the end of a pass matters here.
 */
export class IndexFollower {
  private index: OpenIndex | null = null;
  /** The inode of the file `index` was opened on: another one means the writer rebuilt the index. */
  private inode = 0;
  private lastPass: string | null = null;
  private looked = false;
  private busyNow = true;
  /** The writer has been idle once: its later passes are not announced. */
  private settledOnce = false;
  private waitingNotice: string | null = null;
  private problemNow: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private waiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly options: IndexFollowerOptions) {}

  /** Looks at once (calling back before it returns), then every poll. */
  start(): void {
    this.tick();
  }

  /** Whether the writer is building the index or running a pass (or still starting). */
  get busy(): boolean {
    return this.busyNow && !this.stopped;
  }

  /** Why the index cannot be read at all (another version of Kasten writes it), or null. */
  get problem(): string | null {
    return this.problemNow;
  }

  /** What the user is to know: that the index is another process's to finish first, or why it cannot be read. */
  get notices(): string[] {
    return [this.waitingNotice, this.problemNow].filter((notice) => notice !== null);
  }

  /** Resolves once the writer is idle, or this follower stopped. */
  settled(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    // While someone waits, the poll keeps the process alive (a CLI command waiting for the app's index).
    this.timer?.ref();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wake();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    try {
      this.look();
    } catch (error) {
      // A file being replaced can fail a read for a moment: looked at again on the next poll. Anything
      // else is told rather than waited for, and still looked at again (a permission put right).
      if (!isTransient(error)) {
        this.problemNow = `This vault's index, written by another Kasten process, cannot be read: ${(error as Error).message}`;
        this.settle(false, idle, null);
      }
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), this.options.pollMs ?? 500);
    if (this.waiters.length === 0) this.timer.unref();
  }

  private look(): void {
    const lock = WriterLock.take(this.options.indexFile);
    if (lock) {
      this.stop();
      this.options.onTakeover(lock);
      return;
    }
    this.problemNow = null;
    const db = this.database();
    const writer = readWriterState(this.options.indexFile);
    if (this.problemNow) {
      this.settle(false, idle, writer);
      return;
    }
    const building = db === null || !lookupIndexesBuilt(db);
    const busy = building || writer === null || writer.progress.state === 'indexing';
    const pass = writer && `${writer.writer}:${writer.passes}`;
    if (!busy && pass !== this.lastPass) {
      // The first look needs no reload: the index was read when it was opened, just now.
      if (this.looked && this.index) {
        this.index.names.forget();
        this.options.onChanged();
      }
      this.lastPass = pass;
    }
    this.looked = true;
    const progress = writer && (!busy || writer.progress.state === 'indexing') ? writer.progress : starting;
    this.settle(busy, progress, writer);
  }

  private settle(busy: boolean, progress: IndexProgress, writer: WriterState | null): void {
    this.busyNow = busy;
    this.settledOnce ||= !busy;
    const notice = this.settledOnce ? null : waitingFor(writer);
    if (notice && !this.waitingNotice) this.options.onNotice(notice);
    this.waitingNotice = notice;
    this.options.onProgress(progress);
    if (!busy) this.wake();
  }

  /** The database to read, opened again when the writer replaced the file; null while there is none. */
  private database(): SqliteDatabase | null {
    // Before opening: a file replaced in between is then noticed on the next look.
    const inode = inodeOf(this.options.indexFile);
    if (this.index && inode === this.inode) return this.index.db;
    const opened = openIndexForReading(this.options.indexFile);
    if (opened.db === null) {
      const { schema } = opened;
      if (schema !== null && schema !== 0)
        this.problemNow =
          `Another Kasten process, of another version (index schema ${schema}), is using this vault's ` +
          'index; close it, or open the vault with the same version.';
      return null;
    }
    this.index = indexOver(this.options.root, opened.db, null);
    this.inode = inode;
    this.options.onOpened(this.index);
    return opened.db;
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

function waitingFor(writer: WriterState | null): string {
  const who = writer ? `Another Kasten process (pid ${writer.pid})` : 'Another Kasten process';
  return `${who} is indexing this vault; this one waits for it and reads its index.`;
}

function inodeOf(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.ino ?? 0;
}

/** SQLite's errors of a database in the middle of being replaced: busy, locked, or not yet readable. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === 'SQLITE_SCHEMA';
}
