import { createIndexWorkers, type IndexWorkers } from '../index/index-workers';

/** The index's worker threads, started when first needed; `warm` starts them ahead of a search. */
export interface LazyIndexWorkers extends IndexWorkers {
  warm(): void;
}

/**
 * The parse pool, started at the first note to parse rather than at start: a worker thread loads the
 * parser's code, which on two cores competes with the process's own start-up, and a command that finds its
 * index up to date (`kasten search`) parses nothing. Until the pool runs, searches rank on the main thread
 * alone (the same results: the workers rank shares of the same statement); `warm` starts it for the hosts
 * that stay up. Without a worker file, notes are parsed on the main thread, as createIndexWorkers does.
 */
export function lazyIndexWorkers(workerFile: string | null): LazyIndexWorkers {
  if (workerFile === null) return { ...createIndexWorkers(null), warm: () => {} };
  let pool: IndexWorkers | null = null;
  let disposed = false;
  const started = () => {
    if (disposed) throw new Error('The index workers were stopped.');
    return (pool ??= createIndexWorkers(workerFile));
  };
  return {
    parse: async (task, signal) => started().parse(task, signal),
    get rankers() {
      return pool?.rankers ?? 0;
    },
    rank: async (task) => started().rank(task),
    warm: () => {
      if (!disposed) started();
    },
    dispose: async () => {
      disposed = true;
      await pool?.dispose();
    },
  };
}
