import { kasten } from '../../api';
import { useChatStore } from '../chat/chat-store';
import { useNoteStore } from '../notes/note-store';
import { useVaultStore } from '../vault/vault-store';

/** Where the user was in one vault: the chat and the note shown, and how far down the note was read. */
interface Place {
  sessionId: string | null;
  notePath: string | null;
  noteScroll: number;
}

const nowhere: Place = { sessionId: null, notePath: null, noteScroll: 0 };

function key(vaultPath: string): string {
  return `kasten.resume.${vaultPath}`;
}

export function readPlace(vaultPath: string): Place {
  try {
    const value = JSON.parse(localStorage.getItem(key(vaultPath)) ?? 'null') as Partial<Place> | null;
    return {
      sessionId: typeof value?.sessionId === 'string' ? value.sessionId : null,
      notePath: typeof value?.notePath === 'string' ? value.notePath : null,
      noteScroll: typeof value?.noteScroll === 'number' ? value.noteScroll : 0,
    };
  } catch {
    return nowhere;
  }
}

function writePlace(vaultPath: string, change: Partial<Place>): void {
  try {
    localStorage.setItem(key(vaultPath), JSON.stringify({ ...readPlace(vaultPath), ...change }));
  } catch {
    // A full or disabled storage only costs resuming.
  }
}

/** The vault whose place is being recorded; null while another vault opens or the place is restored. */
let recording: string | null = null;
/** The vault whose place is being restored, so a store update meanwhile does not start it twice. */
let restoring: string | null = null;
let restoredScroll: { path: string; top: number } | null = null;

/** The scroll position to give `path` as it is first shown after a restart, once. */
export function takeRestoredScroll(path: string): number | null {
  if (restoredScroll?.path !== path) return null;
  const { top } = restoredScroll;
  restoredScroll = null;
  return top;
}

export function rememberNoteScroll(path: string, top: number): void {
  if (recording && useNoteStore.getState().path === path)
    writePlace(recording, { noteScroll: Math.round(top) });
}

async function restore(vaultPath: string): Promise<void> {
  const place = readPlace(vaultPath);
  if (place.sessionId && useChatStore.getState().session === null) {
    await useChatStore.getState().resume(place.sessionId);
  }
  if (place.notePath && useNoteStore.getState().path === null) {
    restoredScroll = { path: place.notePath, top: place.noteScroll };
    await useNoteStore.getState().open(place.notePath);
    // A note deleted since then is not brought back as an error.
    if (useNoteStore.getState().error) useNoteStore.getState().close();
  }
  restoring = null;
  recording = vaultPath;
}

let started = false;
/**
 * Reload, restart or reopening a vault shows the chat and the note that were open there. Start before the
 * other stores' syncs, so a vault switch stops recording before they clear the chat and the note.
 */
export function startResume(): void {
  if (started) return;
  started = true;
  kasten.vault.onChanged((change) => {
    if (change.reason === 'opened' && change.vault.path !== recording) recording = null;
  });
  useVaultStore.subscribe((state) => {
    const path = state.vault?.path ?? null;
    if (path && path !== recording && path !== restoring) {
      recording = null;
      restoring = path;
      void restore(path);
    }
  });
  useChatStore.subscribe((state, previous) => {
    const id = state.session?.id ?? null;
    if (recording && id !== (previous.session?.id ?? null)) writePlace(recording, { sessionId: id });
  });
  useNoteStore.subscribe((state, previous) => {
    if (recording && state.path !== previous.path)
      writePlace(recording, { notePath: state.path, noteScroll: 0 });
  });
}
