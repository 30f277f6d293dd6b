import { create } from 'zustand';
import type { NoteFile } from '../../../../shared/domain';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';

interface NoteState {
  path: string | null;
  note: NoteFile | null;
  /** Links in other notes that point here, with the line they are on. */
  backlinks: ResolvedLink[];
  /** Source line to scroll to once the note is shown (a heading, a block, a linking line). */
  line: number | null;
  /** The heading or `^block` to scroll to, found in the note's text once shown; wins over `line`. */
  subpath: string | null;
  /** A passage (as rendered) to scroll to and mark once shown; wins over `subpath` while the note has it. */
  passage: string | null;
  /** Counts user navigations, so a reload after an edit keeps the scroll position. */
  visit: number;
  error: string | null;
  open(path: string, line?: number | null, subpath?: string | null, passage?: string | null): Promise<void>;
  /** Reads the open note and its backlinks again, keeping the scroll position. */
  reload(): Promise<void>;
  /** The open note was renamed on disk: shows it under its new path, where the reader was. */
  follow(path: string): Promise<void>;
  close(): void;
}

/** The note shown in the viewer; reloaded when its file or the link graph changes. */
export const useNoteStore = create<NoteState>((set, get) => ({
  path: null,
  note: null,
  backlinks: [],
  line: null,
  subpath: null,
  passage: null,
  visit: 0,
  error: null,
  async open(path, line = null, subpath = null, passage = null) {
    const sameNote = get().path === path && get().note !== null;
    set({
      path,
      line,
      subpath,
      passage,
      visit: get().visit + 1,
      error: null,
      ...(sameNote ? {} : { note: null, backlinks: [] }),
    });
    if (!sameNote) await get().reload();
  },
  async reload() {
    const path = get().path;
    if (!path) return;
    try {
      const [note, backlinks] = await Promise.all([
        kasten.notes.read({ path }),
        kasten.links.backlinks({ path }).catch(() => []),
      ]);
      if (get().path === path) set({ note, backlinks, error: null });
    } catch (error) {
      if (get().path === path) set({ note: null, backlinks: [], error: describeError(error) });
    }
  },
  async follow(path) {
    // Not a navigation: the scroll position stays, and so does a view shown in the viewer's place.
    set({ path });
    await get().reload();
  },
  close() {
    set({ path: null, note: null, backlinks: [], line: null, subpath: null, passage: null, error: null });
  },
}));

let subscribed = false;
/**
 * The end of an index pass and the change it made arrive together (and with the watcher's own event
 * when the open note was edited): one reload for all of them, not one each.
 */
const reloadCoalesceMs = 30;

/**
 * Follows the files: another vault closes the note; an edit, a rename, a new link or the end of an index
 * pass reloads it.
 */
export function startNoteSync(): void {
  if (subscribed) return;
  subscribed = true;
  let pending: ReturnType<typeof setTimeout> | null = null;
  const reloadSoon = () => {
    pending ??= setTimeout(() => {
      pending = null;
      void useNoteStore.getState().reload();
    }, reloadCoalesceMs);
  };
  kasten.vault.onChanged((change) => {
    const { path, close } = useNoteStore.getState();
    if (!path) return;
    if (change.reason === 'opened') close();
    else if (change.paths.includes(path)) reloadSoon();
  });
  kasten.index.onChanged((change) => {
    const { path, follow } = useNoteStore.getState();
    if (!path) return;
    const renamed = change.renamed.find((rename) => rename.from === path);
    if (renamed) void follow(renamed.to);
    else reloadSoon();
  });
  // A note opened while the vault was still being indexed showed the backlinks written so far.
  let indexing = false;
  kasten.index.onProgress((progress) => {
    const finished = indexing && progress.state !== 'indexing';
    indexing = progress.state === 'indexing';
    if (finished && useNoteStore.getState().path) reloadSoon();
  });
}
