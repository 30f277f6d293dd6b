import { ContextMeter } from '../context/ContextMeter';
import { EmbeddingIndicator } from '../embeddings/EmbeddingIndicator';
import { useVaultStore } from '../vault/vault-store';
import { IndexStatus } from './IndexStatus';
import { ModelStatus } from './ModelStatus';
import './status.css';

/**
 * Bottom bar: the open vault, its size, indexing progress, vault health, embedding progress, summaries,
 * the chat model and how full its context is.
 */
export function StatusBar() {
  const vault = useVaultStore((state) => state.vault);
  return (
    <footer className="status-bar" aria-label="Status">
      {vault ? (
        <>
          <span className="status-vault" title={vault.path}>
            {vault.name}
          </span>
          <span className="status-count" data-testid="note-count">
            {vault.noteCount} {vault.noteCount === 1 ? 'note' : 'notes'}
          </span>
          {vault.attachmentCount > 0 && (
            <span className="muted">
              {vault.attachmentCount} {vault.attachmentCount === 1 ? 'attachment' : 'attachments'}
            </span>
          )}
          <span className="status-spacer" />
          <IndexStatus />
          <EmbeddingIndicator />
          <ModelStatus />
          <ContextMeter />
        </>
      ) : (
        <span className="muted">No vault open</span>
      )}
    </footer>
  );
}
