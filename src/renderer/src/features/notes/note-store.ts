import { create } from 'zustand';
import type { NoteFile } from '../../../../shared/domain';
import { describeError, kasten } from '../../api';

interface NoteState {
  path: string | null;
  note: NoteFile | null;
  /** Heading or block to scroll to once the note is shown. */
  subpath: string | null;
  error: string | null;
  open(path: string, subpath?: string | null): Promise<void>;
  close(): void;
}

/** The note shown in the viewer; reloaded when its file changes on disk. */
export const useNoteStore = create<NoteState>((set, get) => ({
  path: null,
  note: null,
  subpath: null,
  error: null,
  async open(path, subpath = null) {
    set({ path, subpath, error: null });
    try {
      const note = await kasten.notes.read({ path });
      if (get().path === path) set({ note });
    } catch (error) {
      if (get().path === path) set({ note: null, error: describeError(error) });
    }
  },
  close() {
    set({ path: null, note: null, subpath: null, error: null });
  },
}));

let subscribed = false;
/** Follows the files: another vault closes the note; an edit on disk reloads it. */
export function startNoteSync(): void {
  if (subscribed) return;
  subscribed = true;
  kasten.vault.onChanged((change) => {
    const { path, subpath, open, close } = useNoteStore.getState();
    if (!path) return;
    if (change.reason === 'opened') close();
    else if (change.paths.includes(path)) void open(path, subpath);
  });
}
