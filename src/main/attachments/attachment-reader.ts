import {
  attachmentReadTimeoutMs,
  refuseAttachment,
  refuseBeforeReading,
  type AttachmentResult,
} from '../../shared/attachment-domain';
import { importOnFirstUse } from '../lazy-import';
import type { AttachmentTask } from './attachment-content';
import { ReadingProcess, ReadingProcessEnded } from './attachment-process';
import { raceAbort, ReadingTurns } from './reading-turns';

/** The readers themselves (pdf.js among them), for reading in this thread: the app reads in a process. */
const contentReaders = importOnFirstUse('the attachment readers', () => import('./attachment-content'));

// A PDF that would take all memory (a decompression bomb) ends the reading process, not the app.
const memoryMb = 1024;

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
 * A reader whose work runs in a child process (`attachment-worker.js`, see attachment-process.ts), or
 * in the calling thread when `workerFile` is null (unit tests). pdf.js blocked the main thread for
 * 300–520 ms on a 100-page PDF, so the app reads elsewhere; a read past `timeoutMs` ends the process
 * and is refused.
 */
export function createAttachmentReader(
  workerFile: string | null,
  timeoutMs = attachmentReadTimeoutMs,
): AttachmentReader {
  // Started on the first attachment and ended after a minute without one: pdf.js costs ~40 MB.
  const reading =
    workerFile === null
      ? null
      : new ReadingProcess(workerFile, { memoryMb, heapMb: memoryMb / 2, idleMs: 60_000 });
  const turns = new ReadingTurns();
  const inThread = async (task: AttachmentTask, signal: AbortSignal) =>
    (await contentReaders()).readAttachmentContent(task, signal);
  const run = (task: AttachmentTask, signal: AbortSignal): Promise<AttachmentResult> =>
    reading === null ? raceAbort(inThread(task, signal), signal) : reading.run(task, signal);

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
        if (!(error instanceof ReadingProcessEnded && error.outOfMemory)) throw error;
        return refuseAttachment(
          name,
          'too-large',
          `“${name}” is too large to read: it needs more than ${memoryMb / 1024} GB of memory.`,
        );
      } finally {
        release();
      }
    },
    dispose: async () => {
      await reading?.dispose();
    },
  };
}
