import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what a full collection left alive: 20% rather than V8's own
 * factor (up to 4×). Indexing 50k notes peaked at 503–539 MiB, most of it garbage V8 had not collected
 * yet; with this flag at 363–366 MiB, in about the same time (see docs/PERFORMANCE.md).
 */
export const heapGrowthFlag = '--heap-growing-percent=20';

/**
 * Sets `heapGrowthFlag` for this process and the worker threads it starts (V8's flags are the
 * process's). Called first thing by the process entries; V8 reads the factor at each collection.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(heapGrowthFlag);
}
