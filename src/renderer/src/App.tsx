import { useEffect } from 'react';
import { ChatPane } from './features/chat/ChatPane';
import { startNoteSync, useNoteStore } from './features/notes/note-store';
import { NoteViewer } from './features/notes/NoteViewer';
import { ReferencePanel } from './features/references/ReferencePanel';
import { StatusBar } from './features/status/StatusBar';
import { NoteTree } from './features/vault/NoteTree';
import { startVaultSync, useVaultStore } from './features/vault/vault-store';
import { VaultSwitcher } from './features/vault/VaultSwitcher';

export function App() {
  const loaded = useVaultStore((state) => state.loaded);
  const vault = useVaultStore((state) => state.vault);
  const error = useVaultStore((state) => state.error);
  const noteOpen = useNoteStore((state) => state.path !== null);

  useEffect(() => {
    startVaultSync();
    startNoteSync();
  }, []);

  return (
    <div className={`app${noteOpen ? ' with-note' : ''}`}>
      <nav className="sidebar" aria-label="Vault">
        <header className="pane-header">
          <VaultSwitcher />
        </header>
        {!loaded ? (
          <p className="muted pad">Loading…</p>
        ) : vault ? (
          <NoteTree />
        ) : (
          <p className="muted pad">{error ?? 'No vault is open.'}</p>
        )}
      </nav>
      <main className="workspace">
        <ChatPane />
        <NoteViewer />
      </main>
      <ReferencePanel />
      <StatusBar />
    </div>
  );
}
