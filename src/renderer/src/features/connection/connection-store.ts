import { create } from 'zustand';
import { connection } from '../../api';
import type { ConnectionState } from '../../connection';
import { useChatStore } from '../chat/chat-store';
import { pushPendingDrafts } from '../chat/chat-drafts';
import { useNoteStore } from '../notes/note-store';
import { useVaultStore } from '../vault/vault-store';

/** The page's link to the host, mirrored for components. */
export const useConnectionStore = create<{ state: ConnectionState }>(() => ({ state: connection.get() }));

/** Why the page cannot talk to Kasten now, in the words a button's title and the banner use; null if it can. */
export function connectionProblem(state: ConnectionState): string | null {
  if (state === 'lost') return 'Connection to Kasten lost. Reconnecting…';
  if (state === 'refused')
    return 'Kasten was restarted, so this page’s address is no longer valid. Open the new address that “kasten serve” printed in its terminal (http://127.0.0.1:…/?token=…).';
  return null;
}

let started = false;
/** Follows the connection; once back, reads again what events may have changed while it was away. */
export function startConnectionSync(): void {
  if (started) return;
  started = true;
  useConnectionStore.setState({ state: connection.get() });
  connection.subscribe((state, previous) => {
    useConnectionStore.setState({ state });
    if (state !== 'connected' || previous !== 'lost') return;
    pushPendingDrafts();
    void useVaultStore.getState().load();
    void useChatStore.getState().reload();
    void useChatStore.getState().loadSessions();
    void useNoteStore.getState().reload();
  });
}
