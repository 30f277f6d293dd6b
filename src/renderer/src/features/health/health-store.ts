import { create } from 'zustand';
import type { HealthCounts, VaultHealth } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';

interface HealthState {
  /** How many issues of each kind: always kept fresh, for the status bar. */
  counts: HealthCounts | null;
  /** The issues themselves: read only while the health view shows them (a 10k-note vault's run to MBs). */
  health: VaultHealth | null;
  /** The health view is showing in place of the note viewer. */
  shown: boolean;
  error: string | null;
  /** Reads the counts again, and the issues too when the view is showing. */
  load(): Promise<void>;
  show(shown: boolean): void;
}

let loads = 0;

/** Broken links, links naming an alias, ambiguous links, broken subpaths, warnings and index notices, reloaded as the index changes. */
export const useHealthStore = create<HealthState>((set, get) => ({
  counts: null,
  health: null,
  shown: false,
  error: null,
  async load() {
    // Only the latest load lands: one started before the view opened would bring no issues.
    const load = ++loads;
    const shown = get().shown;
    try {
      const [counts, health] = await Promise.all([
        kasten.vault.issues(),
        shown ? kasten.vault.health() : Promise.resolve(null),
      ]);
      if (load === loads) set({ counts, health, error: null });
    } catch (error) {
      if (load === loads) set({ error: describeError(error) });
    }
  },
  show(shown) {
    if (shown === get().shown) return;
    set({ shown, ...(shown ? {} : { health: null }) });
    if (shown) void get().load();
  },
}));

export function issueCount(counts: HealthCounts | null): number {
  if (!counts) return 0;
  return (
    counts.notices +
    counts.broken +
    counts.aliasLinks +
    counts.ambiguous +
    counts.brokenSubpaths +
    counts.warnings
  );
}
