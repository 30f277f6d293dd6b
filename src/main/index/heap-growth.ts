import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what a full collection left alive while a large index is built:
 * 20% rather than V8's own factor (up to 4×). Indexing 50k notes peaked at 503–573 MiB, most of it
 * garbage V8 had not collected yet; with this flag at 361–379 MiB, in the same time. Set for the whole
 * process, it made `kasten search` 20% slower (with a small heap V8 marks almost all the time), so it
 * holds for large full passes only (see docs/PERFORMANCE.md).
 */
export const heapGrowthFlag = '--heap-growing-percent=20';
/**
 * From how many notes a full pass limits the heap's growth. At 10k notes the limit saved 18–38 MiB of a
 * 285 MiB peak and cost 0–8% of the time (5.38 × the floor against 5.36, 5.87 against 5.42); at 50k
 * it saved 160–190 MiB at no cost in time.
 */
export const notesToLimitHeap = 20_000;
/** V8's default: the factor it reckons from how fast it collects. */
const defaultGrowth = '--heap-growing-percent=0';

/** How many full passes run in this process (one per open index at most). */
let fullPasses = 0;

/**
 * Runs `work` (a full pass) with the heap's growth limited by `heapGrowthFlag`. V8's flags are the
 * process's, so the parse workers have it too; V8 reads the factor at each collection.
 */
export async function withHeapGrowthLimited<T>(work: () => Promise<T>): Promise<T> {
  if (fullPasses++ === 0) setFlagsFromString(heapGrowthFlag);
  try {
    return await work();
  } finally {
    if (--fullPasses === 0) setFlagsFromString(defaultGrowth);
  }
}
