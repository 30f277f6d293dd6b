import { useEffect } from 'react';
import { ChatPane } from './features/chat/ChatPane';
import { ConnectionBanner } from './features/connection/ConnectionBanner';
import { useHealthStore } from './features/health/health-store';
import { HealthView } from './features/health/HealthView';
import { ContextTabBadge } from './features/items/ContextTabBadge';
import { SessionContextPanel } from './features/items/SessionContextPanel';
import { RightPane } from './features/layout/RightPane';
import { Workspace } from './features/layout/Workspace';
import { useNoteStore } from './features/notes/note-store';
import { NoteViewer } from './features/notes/LazyNoteViewer';
import { ReferencePanel } from './features/references/ReferencePanel';
import { useSettingsStore } from './features/settings/settings-store';
import { SettingsView } from './features/settings/SettingsView';
import { StatusBar } from './features/status/StatusBar';
import { VaultSidebar } from './features/vault/VaultSidebar';

export function App() {
  const noteOpen = useNoteStore((state) => state.path !== null);
  const visit = useNoteStore((state) => state.visit);
  const healthShown = useHealthStore((state) => state.shown);
  const settingsShown = useSettingsStore((state) => state.shown);

  // Opening a note from anywhere (tree, search, a reference) shows it in place of the health view.
  useEffect(() => {
    if (visit > 0) useHealthStore.getState().show(false);
  }, [visit]);

  return (
    <div className="app">
      <ConnectionBanner />
      <Workspace
        tree={<VaultSidebar />}
        chat={<ChatPane />}
        note={healthShown ? <HealthView /> : noteOpen ? <NoteViewer /> : null}
        references={
          <RightPane
            tabs={[
              { id: 'references', label: 'References', region: 'References', content: <ReferencePanel /> },
              {
                id: 'context',
                label: 'Context',
                badge: <ContextTabBadge />,
                region: 'Chat context',
                content: <SessionContextPanel />,
              },
            ]}
          />
        }
      />
      <StatusBar />
      {settingsShown && <SettingsView />}
    </div>
  );
}
