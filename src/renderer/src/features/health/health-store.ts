import { create } from 'zustand';
import type { VaultHealth } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';

interface HealthState {
  health: VaultHealth | null;
  /** The health view is showing in place of the note viewer. */
  shown: boolean;
  error: string | null;
  load(): Promise<void>;
  show(shown: boolean): void;
}

/** Broken links, ambiguous links, broken subpaths and warnings, reloaded whenever the index changes. */
export const useHealthStore = create<HealthState>((set) => ({
  health: null,
  shown: false,
  error: null,
  async load() {
    try {
      set({ health: await kasten.vault.health(), error: null });
    } catch (error) {
      set({ health: null, error: describeError(error) });
    }
  },
  show(shown) {
    set({ shown });
  },
}));

export function issueCount(health: VaultHealth | null): number {
  if (!health) return 0;
  return (
    health.notices.length +
    health.broken.length +
    health.ambiguous.length +
    health.brokenSubpaths.length +
    health.warnings.length
  );
}
