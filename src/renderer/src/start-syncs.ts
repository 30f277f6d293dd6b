import { startChatSync } from './features/chat/chat-store';
import { startConnectionSync } from './features/connection/connection-store';
import { startContextSync } from './features/context/context-store';
import { startEmbeddingSync } from './features/embeddings/embedding-store';
import { startItemsSync } from './features/items/items-store';
import { startNoteSync } from './features/notes/note-store';
import { startResume } from './features/resume/resume';
import { startSettingsSync } from './features/settings/settings-store';
import { startIndexSync } from './features/status/index-store';
import { startModelHealth } from './features/status/model-health-store';
import { startVaultSync } from './features/vault/vault-store';

/**
 * Starts every store's loading and its subscription to the host's events (each once). Called before the
 * first render: the page's first requests (the note tree, the index's status) go out while React
 * renders the empty shell, not after it.
 */
export function startSyncs(): void {
  startResume();
  startConnectionSync();
  startVaultSync();
  startNoteSync();
  startIndexSync();
  startChatSync();
  startSettingsSync();
  startContextSync();
  startItemsSync();
  startEmbeddingSync();
  startModelHealth();
}
