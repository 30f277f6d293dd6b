import type { IndexWorkers } from '../index/index-workers';
import { parseNotesHere } from '../index/parse-file';
import { minNotesToShare } from '../index/shared-ranking';

/** The index's worker threads, started when first needed; `warm` starts them ahead of a search. */
export interface LazyIndexWorkers extends IndexWorkers {
  /** Starts the pool when a vault of `notes` notes has searches it shares (see minNotesToShare). */
  warm(notes: number): void;
}

/**
 * The parse pool, started at the first note to parse rather than at start: a worker thread loads the
 * parser's code, which on two cores competes with the process's own start-up, and a command that finds its
 * index up to date (`kasten search`) parses nothing. Until the pool runs, searches rank on the main thread
 * alone (the same results: the workers rank shares of the same statement); `warm` starts it for the hosts
 * that stay up, when their vault is large enough for a search to be shared. The pool's code (piscina,
 * @napi-rs/nice) is imported then too. Without a worker file, notes are parsed on the main thread, as
 * createIndexWorkers does. With one, the main thread parses beside the pool whenever it has nothing to
 * write (`parseHere`), from the pass's first note: it once lost that here, and a cold index of 10k notes
 * then waited on the one worker 2.4 s of its 5.7.
 */
export function lazyIndexWorkers(workerFile: string | null): LazyIndexWorkers {
  let pool: Promise<IndexWorkers> | null = null;
  /** Set once the pool runs: what `rankers` reads, synchronously. */
  let running: IndexWorkers | null = null;
  let disposed = false;
  const started = () => {
    if (disposed) return Promise.reject(new Error('The index workers were stopped.'));
    return (pool ??= import('../index/index-workers').then(({ createIndexWorkers }) => {
      running = createIndexWorkers(workerFile);
      return running;
    }));
  };
  return {
    parse: async (task, signal) => (await started()).parse(task, signal),
    parseHere: workerFile === null ? undefined : parseNotesHere,
    get rankers() {
      return running?.rankers ?? 0;
    },
    rank: async (task) => (await started()).rank(task),
    warm: (notes) => {
      if (!disposed && notes >= minNotesToShare) void started();
    },
    dispose: async () => {
      disposed = true;
      await (await pool?.catch(() => null))?.dispose();
      running = null;
    },
  };
}
