import { kasten } from '../../api';
import { useChatStore } from '../chat/chat-store';
import { useNoteStore } from '../notes/note-store';
import { useVaultStore } from '../vault/vault-store';

/** The block at the top of a note's view (by its first source line) and how far past its top. */
export interface NoteAnchor {
  line: number;
  offset: number;
}

/** The message at the top of the chat's view and how far past its top; null: the end of the chat. */
export interface ChatAnchor {
  messageId: number;
  offset: number;
}

/** Where the user was in one vault: the chat and the note shown, and where each was scrolled to. */
interface Place {
  sessionId: string | null;
  chatAnchor: ChatAnchor | null;
  notePath: string | null;
  noteAnchor: NoteAnchor | null;
}

const nowhere: Place = { sessionId: null, chatAnchor: null, notePath: null, noteAnchor: null };

function key(vaultPath: string): string {
  return `kasten.resume.${vaultPath}`;
}

/** `value` when it has a number under each of `keys`, else null. */
function numbers<T>(value: unknown, keys: readonly (keyof T & string)[]): T | null {
  if (!value || typeof value !== 'object') return null;
  return keys.every((name) => typeof (value as Record<string, unknown>)[name] === 'number')
    ? (value as T)
    : null;
}

export function readPlace(vaultPath: string): Place {
  try {
    const value = JSON.parse(localStorage.getItem(key(vaultPath)) ?? 'null') as Partial<Place> | null;
    return {
      sessionId: typeof value?.sessionId === 'string' ? value.sessionId : null,
      chatAnchor: numbers<ChatAnchor>(value?.chatAnchor, ['messageId', 'offset']),
      notePath: typeof value?.notePath === 'string' ? value.notePath : null,
      noteAnchor: numbers<NoteAnchor>(value?.noteAnchor, ['line', 'offset']),
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
let restoredNote: { path: string; anchor: NoteAnchor | null } | null = null;
let restoredChat: { sessionId: string; anchor: ChatAnchor | null } | null = null;

/** Where to scroll `path` as it is first shown after a restart, once; null: its top. */
export function takeRestoredScroll(path: string): NoteAnchor | null {
  if (restoredNote?.path !== path) return null;
  const { anchor } = restoredNote;
  restoredNote = null;
  return anchor;
}

/** Where to scroll the chat `sessionId` as it is first shown after a restart, once; undefined: not restored. */
export function takeRestoredChatScroll(sessionId: string): ChatAnchor | null | undefined {
  if (restoredChat?.sessionId !== sessionId) return undefined;
  const { anchor } = restoredChat;
  restoredChat = null;
  return anchor;
}

export function rememberNoteScroll(path: string, anchor: NoteAnchor | null): void {
  if (recording && useNoteStore.getState().path === path) writePlace(recording, { noteAnchor: anchor });
}

export function rememberChatScroll(sessionId: string, anchor: ChatAnchor | null): void {
  if (recording && useChatStore.getState().session?.id === sessionId)
    writePlace(recording, { chatAnchor: anchor });
}

async function restore(vaultPath: string): Promise<void> {
  const place = readPlace(vaultPath);
  if (place.sessionId && useChatStore.getState().session === null) {
    restoredChat = { sessionId: place.sessionId, anchor: place.chatAnchor };
    await useChatStore.getState().resume(place.sessionId);
  }
  if (place.notePath && useNoteStore.getState().path === null) {
    restoredNote = { path: place.notePath, anchor: place.noteAnchor };
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
    if (recording && id !== (previous.session?.id ?? null))
      writePlace(recording, { sessionId: id, chatAnchor: null });
  });
  useNoteStore.subscribe((state, previous) => {
    if (recording && state.path !== previous.path)
      writePlace(recording, { notePath: state.path, noteAnchor: null });
  });
}
