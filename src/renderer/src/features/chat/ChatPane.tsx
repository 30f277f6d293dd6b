import { useVaultStore } from '../vault/vault-store';

/** The conversation. Until chat lands it explains what will happen here. */
export function ChatPane() {
  const vault = useVaultStore((state) => state.vault);
  return (
    <section className="chat-pane" aria-label="Chat">
      <div className="empty-state">
        <h2>Ask your notes</h2>
        <p>
          {vault
            ? `Chat about the ${vault.noteCount} notes in “${vault.name}”. Every answer will show the notes it used.`
            : 'Open a vault to start.'}
        </p>
        <p className="muted">Chat is not available in this version yet. Browse your notes on the left.</p>
      </div>
    </section>
  );
}
