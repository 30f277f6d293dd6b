import { Piscina } from 'piscina';
import {
  attachmentReadTimeoutMs,
  refuseAttachment,
  refuseBeforeReading,
  type AttachmentResult,
} from '../../shared/attachment-domain';
import { readAttachmentContent, type AttachmentTask } from './attachment-content';
import { raceAbort, ReadingTurns } from './reading-turns';

// A PDF that would take all memory (a decompression bomb) ends the worker, not the app.
const heapMb = 1024;

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** Turns files dropped or pasted on the composer into text for the model, or into a refusal to show. */
export interface AttachmentReader {
  /**
   * The text of a file, or a plain sentence saying why it cannot be read (a bad file never rejects).
   * Rejects with the signal's reason when the caller aborts.
   */
  read(name: string, bytes: Uint8Array, signal?: AbortSignal): Promise<AttachmentResult>;
  dispose(): Promise<void>;
}

/**
 * A reader whose work runs in one worker thread (`attachment-worker.js`), or in the calling thread when
 * `workerFile` is null (unit tests). pdf.js blocked the main thread for 300–520 ms on a 100-page PDF,
 * so the app reads in the worker; a read past `timeoutMs` ends the thread and is refused.
 */
export function createAttachmentReader(
  workerFile: string | null,
  timeoutMs = attachmentReadTimeoutMs,
): AttachmentReader {
  const pool =
    workerFile === null
      ? null
      : new Piscina<AttachmentTask, AttachmentResult>({
          filename: workerFile,
          // Started on the first attachment and ended after a minute without one: pdf.js costs ~40 MB.
          minThreads: 0,
          maxThreads: 1,
          idleTimeout: 60_000,
          // As for the index workers: the main thread, which answers the window, wins a busy processor.
          niceIncrement: 10,
          resourceLimits: { maxOldGenerationSizeMb: heapMb },
        });
  const turns = new ReadingTurns();
  const run = (task: AttachmentTask, signal: AbortSignal): Promise<AttachmentResult> =>
    pool === null ? raceAbort(readAttachmentContent(task, signal), signal) : pool.run(task, { signal });

  return {
    async read(name, bytes, signal) {
      signal?.throwIfAborted();
      const early = refuseBeforeReading(name, bytes.length);
      if (early) return early;
      const release = await turns.take(signal);
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        return await run({ name, bytes }, signal ? AbortSignal.any([signal, timeout]) : timeout);
      } catch (error) {
        signal?.throwIfAborted();
        if (timeout.aborted) return refuseAttachment(name, 'timeout');
        if (!isOutOfMemory(error)) throw error;
        return refuseAttachment(
          name,
          'too-large',
          `“${name}” is too large to read: it needs more than ${heapMb / 1024} GB of memory.`,
        );
      } finally {
        release();
      }
    },
    dispose: async () => {
      await pool?.destroy();
    },
  };
}
