import { create } from 'zustand';
import type { RelatedNotes } from '../../../../shared/embedding-domain';
import { describeError, kasten } from '../../api';

interface RelatedState {
  /** The note the related notes are of. */
  path: string | null;
  related: RelatedNotes | null;
  error: string | null;
  /** Kept here rather than in the component: the viewer unmounts it while the next note loads. */
  collapsed: boolean;
  /** Reads the related notes of `path` (again: the index or the vectors changed). */
  load(path: string): Promise<void>;
  setCollapsed(collapsed: boolean): void;
}

let loads = 0;

/** The notes related to the open note: links either way, shared tags, similar ones. */
export const useRelatedStore = create<RelatedState>((set, get) => ({
  path: null,
  related: null,
  error: null,
  collapsed: false,
  async load(path) {
    // Only the latest load lands: the answer for a note left meanwhile is dropped.
    const load = ++loads;
    // Another note's list would mislead while this one's loads; the same note's stays until replaced.
    if (get().path !== path) set({ path, related: null, error: null });
    try {
      const related = await kasten.notes.related({ path });
      if (load === loads) set({ related, error: null });
    } catch (error) {
      if (load === loads) set({ related: null, error: describeError(error) });
    }
  },
  setCollapsed(collapsed) {
    set({ collapsed });
  },
}));
