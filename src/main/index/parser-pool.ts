import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { parseNotes } from './parse-file';
import type { ParseOutcome, ParseTask } from './parsed-note';

/** Parses batches of notes; off the main thread when a worker file is given. */
export interface ParserPool {
  parse(task: ParseTask, signal?: AbortSignal): Promise<ParseOutcome[]>;
  dispose(): Promise<void>;
}

/**
 * A worker_threads pool, or inline parsing when `workerFile` is null. One core is left to the main
 * thread, which writes everything the workers parse: on two cores a second worker made a cold index of
 * 10k notes no faster (6.2–6.7 s either way) and cost 75 MB.
 */
export function createParserPool(
  workerFile: string | null,
  threads = Math.max(1, availableParallelism() - 1),
): ParserPool {
  if (workerFile === null) {
    return {
      parse: (task, signal) => {
        signal?.throwIfAborted();
        return Promise.resolve(parseNotes(task));
      },
      dispose: async () => {},
    };
  }
  const pool = new Piscina<ParseTask, ParseOutcome[]>({
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
  return {
    parse: (task, signal) => pool.run(task, { signal }),
    dispose: () => pool.destroy(),
  };
}
