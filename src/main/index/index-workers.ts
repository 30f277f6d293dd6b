import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { parseNotes, parseNotesHere } from './parse-file';
import type { ParsedBatch, ParseTask } from './parsed-note';
import type { RankedNote, RankTask } from './ranking-task';

/** Worker threads for the index: they parse notes and, when idle, rank a share of a search's matches. */
export interface IndexWorkers {
  parse(task: ParseTask, signal?: AbortSignal): Promise<ParsedBatch>;
  /**
   * Parses a task on the calling (main) thread, beside worker threads: a pass gives it small tasks when
   * it has nothing to write. Absent when parsing is inline anyway.
   */
  parseHere?(task: ParseTask): ParsedBatch;
  /** How many rank tasks can run at once beside the main thread; 0 when there are no worker threads. */
  readonly rankers: number;
  rank(task: RankTask): Promise<RankedNote[]>;
  dispose(): Promise<void>;
}

/**
 * A worker_threads pool, or inline parsing when `workerFile` is null. One core is left to the main
 * thread, which writes everything the workers parse: on two cores a second worker made a cold index of
 * 10k notes no faster (6.2–6.7 s either way) and cost 75 MB.
 */
export function createIndexWorkers(
  workerFile: string | null,
  threads = Math.max(1, availableParallelism() - 1),
): IndexWorkers {
  if (workerFile === null) {
    return {
      parse: (task, signal) => {
        signal?.throwIfAborted();
        return Promise.resolve(parseNotes(task));
      },
      rankers: 0,
      rank: () => Promise.reject(new Error('Ranking runs in worker threads, and there are none.')),
      dispose: async () => {},
    };
  }
  const pool = new Piscina<ParseTask | RankTask, ParsedBatch | RankedNote[]>({
    filename: workerFile,
    minThreads: 1,
    maxThreads: Math.max(1, threads),
    idleTimeout: 30_000,
    // Parsing yields the processor to the main thread, which answers requests and writes the index:
    // on a 2-core machine the workers would otherwise starve it (through @napi-rs/nice, Linux and macOS).
    niceIncrement: 10,
    // A task's 64 parsed notes stay alive until they are sent: with a smaller young generation they
    // survive scavenges into the old generation. 32 MB against 4 MB: a third less CPU on a cold index.
    resourceLimits: { maxYoungGenerationSizeMb: 32 },
  });
  // A result that arrives after the pool was destroyed (a search's share no one waits for any more) is
  // reported as an error event, which would otherwise be thrown; a worker's crash fails its tasks anyway.
  pool.on('error', () => {});
  return {
    parse: (task, signal) => pool.run(task, { signal }) as Promise<ParsedBatch>,
    parseHere: parseNotesHere,
    rankers: Math.max(1, threads),
    rank: (task) => pool.run(task, { name: 'rankNotes' }) as Promise<RankedNote[]>,
    dispose: () => pool.destroy(),
  };
}
