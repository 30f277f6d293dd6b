import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What V8's `gc` takes: a last-resort collection also gives its freed pages back to the system. */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * One full collection of the main thread's heap, once a cold index pass is over, for the processes that
 * stay open (`kasten serve`, the desktop app). The pass leaves about 110 MiB of garbage in the old
 * generation, and V8 collects it only when the heap grows again, which an idle app never makes it do:
 * `kasten serve` on 10k notes stayed at 295 MiB resident (275 after 30 s idle), against 184 after a full
 * collection. A plain `gc()` freed the heap (126 → 38 MiB) but kept the pages: 299 → 296 MiB resident;
 * the last-resort flavor (what V8 does on a low-memory notification) 298 → 187. It runs once per cold
 * pass. `gc` is reached through a new context, since Node has no API to collect without --expose-gc.
 */
export function collectAfterColdIndex(): void {
  setTimeout(() => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as Collect)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }, 0).unref();
}
