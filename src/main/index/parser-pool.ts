import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { parseNotes } from './parse-file';
import type { ParseOutcome, ParseTask } from './parsed-note';

/** Parses batches of notes; off the main thread when a worker file is given. */
export interface ParserPool {
  parse(task: ParseTask, signal?: AbortSignal): Promise<ParseOutcome[]>;
  dispose(): Promise<void>;
}

/** A worker_threads pool sized to the machine's cores, or inline parsing when `workerFile` is null. */
export function createParserPool(workerFile: string | null, threads = availableParallelism()): ParserPool {
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
    // A 4 MB young generation saved little memory but cost a third more CPU in scavenges on a cold index.
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  return {
    parse: (task, signal) => pool.run(task, { signal }),
    dispose: () => pool.destroy(),
  };
}
