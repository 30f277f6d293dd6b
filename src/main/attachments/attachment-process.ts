import { spawn, type ChildProcess } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import type { AttachmentResult } from '../../shared/attachment-domain';
import type { AttachmentTask } from './attachment-content';

/** What one reading process may use: the OS refuses memory past `memoryMb` (Linux). */
export interface ProcessLimits {
  /** Private writable memory of the whole process: V8's heap, pdf.js's decoded streams, everything. */
  memoryMb: number;
  /** V8's old generation, below `memoryMb`, so plain JavaScript garbage ends in a clean out-of-memory. */
  heapMb: number;
  /** How long the process waits for another file before it ends. */
  idleMs: number;
}

/** Why the reading process ended in the middle of a file. */
export class ReadingProcessEnded extends Error {
  constructor(readonly outOfMemory: boolean) {
    super(outOfMemory ? 'The attachment reader ran out of memory.' : 'The attachment reader stopped.');
    this.name = 'ReadingProcessEnded';
  }
}

// How a process dies when memory is refused: V8's fatal messages and C++'s bad_alloc (SIGABRT), or a
// failed allocation check in V8 (SIGTRAP). Measured with a 2 GB content stream and a 4 GB font.
const outOfMemoryWords = /out of memory|allocation failed|bad_alloc|\(result\.ptr\) != nullptr/i;
const outOfMemorySignals: readonly string[] = ['SIGABRT', 'SIGTRAP'];
const stderrKept = 4096;

/** A message is an AttachmentResult the child sent, checked as far as the reader relies on it. */
function isResult(message: unknown): message is AttachmentResult {
  if (typeof message !== 'object' || message === null || !('ok' in message)) return false;
  return 'name' in message && typeof message.name === 'string' && typeof message.ok === 'boolean';
}

/**
 * The command that starts a reader. On Linux the shell sets RLIMIT_DATA before it becomes Node: it counts
 * every private writable mapping (Linux 4.7+), so buffers outside V8's heap are held too, but not V8's
 * PROT_NONE reservations. RLIMIT_AS (`ulimit -v`) would be simpler but breaks WebAssembly, which reserves
 * about 10 GB per memory (measured: WebAssembly.Memory fails under `ulimit -v 8388608`). A limit the
 * shell cannot set leaves a lower one in place. macOS does not count mapped memory in RLIMIT_DATA and
 * Windows has no rlimits: there only the heap flag and the timeout hold.
 */
function command(file: string, limits: ProcessLimits): [string, string[]] {
  const node = [`--max-old-space-size=${limits.heapMb}`, file];
  if (process.platform !== 'linux') return [process.execPath, node];
  const limit = `ulimit -d ${limits.memoryMb * 1024}; exec "$0" "$@"`;
  return ['/bin/sh', ['-c', limit, process.execPath, ...node]];
}

/**
 * One child process that reads attachments (`attachment-worker.js`), started on the first file and
 * ended after `idleMs` without one. A file read past its time or aborted ends the process, and a file
 * that takes more memory than allowed ends it too, never the app: decoded PDF streams live outside V8's
 * heap, where a worker thread's heap limit did not reach (a 4 MB font took the app to 3.6 GB).
 */
export class ReadingProcess {
  private child: ChildProcess | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private stderr = '';

  constructor(
    private readonly file: string,
    private readonly limits: ProcessLimits,
  ) {}

  /** Reads one file; rejects with ReadingProcessEnded, or with the signal's reason when it aborts. */
  run(task: AttachmentTask, signal: AbortSignal): Promise<AttachmentResult> {
    signal.throwIfAborted();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = this.child ?? this.start();
    // Held while a file is read (a CLI command waits for it), let go of while idle.
    child.ref();
    child.channel?.ref();
    return new Promise<AttachmentResult>((resolve, reject) => {
      const settle = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        signal.removeEventListener('abort', onAbort);
        child.unref();
        child.channel?.unref();
      };
      const onMessage = (message: unknown) => {
        settle();
        if (!isResult(message)) return reject(new ReadingProcessEnded(false));
        this.idleTimer = setTimeout(() => this.stop(child), this.limits.idleMs).unref();
        resolve(message);
      };
      const onExit = (_code: number | null, signalName: NodeJS.Signals | null) => {
        settle();
        const words = outOfMemoryWords.test(this.stderr);
        reject(new ReadingProcessEnded(words || outOfMemorySignals.includes(signalName ?? '')));
      };
      const onError = (error: Error) => {
        settle();
        this.stop(child);
        reject(error);
      };
      const onAbort = () => {
        settle();
        this.stop(child);
        reject(signal.reason);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
      signal.addEventListener('abort', onAbort, { once: true });
      child.send(task);
    });
  }

  async dispose(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.stop(child);
    await exited;
  }

  private start(): ChildProcess {
    const [program, args] = command(this.file, this.limits);
    // The reader parses hostile files: it gets none of the app's environment (API keys live there).
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    // Under Electron execPath is the app itself; this makes it plain Node.
    if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
    const child = spawn(program, args, {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Structured clone: a file's bytes cross as bytes, not as JSON numbers.
      serialization: 'advanced',
      env,
    });
    this.stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-stderrKept)));
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    // Spawn failures reach the pending read (run's own listener); this keeps one from throwing.
    child.on('error', () => {});
    this.lowerPriority(child);
    this.child = child;
    return child;
  }

  /** As for the index workers: the app, which answers the window, wins a busy processor. */
  private lowerPriority(child: ChildProcess): void {
    try {
      if (child.pid !== undefined) setPriority(child.pid, Math.min(19, getPriority() + 10));
    } catch {
      // Not allowed here (some sandboxes); the file is still read, only at the same priority.
    }
  }

  private stop(child: ChildProcess): void {
    if (this.child === child) this.child = null;
    child.kill('SIGKILL');
  }
}
