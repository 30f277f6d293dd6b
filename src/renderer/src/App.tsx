import { useEffect } from 'react';
import { startChatSync } from './features/chat/chat-store';
import { ChatPane } from './features/chat/ChatPane';
import { startContextSync } from './features/context/context-store';
import { startEmbeddingSync } from './features/embeddings/embedding-store';
import { useHealthStore } from './features/health/health-store';
import { HealthView } from './features/health/HealthView';
import { startNoteSync, useNoteStore } from './features/notes/note-store';
import { NoteViewer } from './features/notes/NoteViewer';
import { ReferencePanel } from './features/references/ReferencePanel';
import { SearchBox, SearchResults } from './features/search/SearchPanel';
import { startSettingsSync, useSettingsStore } from './features/settings/settings-store';
import { SettingsView } from './features/settings/SettingsView';
import { searchActive, useSearchStore } from './features/search/search-store';
import { startIndexSync } from './features/status/index-store';
import { StatusBar } from './features/status/StatusBar';
import { NoteTree } from './features/vault/NoteTree';
import { startVaultSync, useVaultStore } from './features/vault/vault-store';
import { VaultSwitcher } from './features/vault/VaultSwitcher';

function Sidebar() {
  const loaded = useVaultStore((state) => state.loaded);
  const vault = useVaultStore((state) => state.vault);
  const error = useVaultStore((state) => state.error);
  const searching = useSearchStore(searchActive);

  return (
    <nav className="sidebar" aria-label="Vault">
      <header className="pane-header">
        <VaultSwitcher />
      </header>
      {vault?.missing && (
        <p className="banner" role="alert" data-testid="vault-missing">
          The folder {vault.path} is gone (deleted, moved or unplugged). The notes below are from the index;
          open another vault or put the folder back.
        </p>
      )}
      {!loaded ? (
        <p className="muted pad">Loading…</p>
      ) : vault ? (
        <>
          <SearchBox />
          {searching ? <SearchResults /> : <NoteTree />}
        </>
      ) : (
        <p className="muted pad">{error ?? 'No vault is open.'}</p>
      )}
    </nav>
  );
}

export function App() {
  const noteOpen = useNoteStore((state) => state.path !== null);
  const visit = useNoteStore((state) => state.visit);
  const healthShown = useHealthStore((state) => state.shown);
  const settingsShown = useSettingsStore((state) => state.shown);

  // Opening a note from anywhere (tree, search, a reference) shows it in place of the health view.
  useEffect(() => {
    if (visit > 0) useHealthStore.getState().show(false);
  }, [visit]);

  useEffect(() => {
    startVaultSync();
    startNoteSync();
    startIndexSync();
    startChatSync();
    startSettingsSync();
    startContextSync();
    startEmbeddingSync();
  }, []);

  return (
    <div className={`app${noteOpen || healthShown ? ' with-note' : ''}`}>
      <Sidebar />
      <main className="workspace">
        <ChatPane />
        {healthShown ? <HealthView /> : <NoteViewer />}
      </main>
      <ReferencePanel />
      <StatusBar />
      {settingsShown && <SettingsView />}
    </div>
  );
}
