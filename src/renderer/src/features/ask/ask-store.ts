import { create } from 'zustand';
import type { NoteSelection } from '../../../../shared/selection-domain';

/** A passage chosen with "Ask" in the note viewer, waiting in the composer for its question. */
export interface AskedPassage {
  selection: NoteSelection;
  /** The note's title, as the composer shows it. */
  title: string;
}

interface AskState {
  asked: AskedPassage | null;
  /** Counts "Ask" presses: the composer takes the focus at each, even for the same passage. */
  asks: number;
  ask(passage: AskedPassage): void;
  clear(): void;
}

/** The passage the next message asks about; UI state only, sent with the message and then forgotten. */
export const useAskStore = create<AskState>((set, get) => ({
  asked: null,
  asks: 0,
  ask(passage) {
    set({ asked: passage, asks: get().asks + 1 });
  },
  clear() {
    set({ asked: null });
  },
}));
