import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useChatStore } from './chat-store';

/** The vault's chats, searchable; each can be opened, renamed or deleted (with undo). */
export function SessionList({ onClose }: { onClose: () => void }) {
  const sessions = useChatStore((state) => state.sessions);
  const query = useChatStore((state) => state.query);
  const current = useChatStore((state) => state.session?.id);
  const { loadSessions, open, rename, remove } = useChatStore.getState();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [title, setTitle] = useState('');

  return (
    <div className="session-list" data-testid="session-list">
      <input
        type="search"
        placeholder="Search chats"
        aria-label="Search chats"
        value={query}
        onChange={(event) => void loadSessions(event.target.value)}
      />
      {sessions.length === 0 && <p className="muted small">{query ? 'No chat matches.' : 'No chats yet.'}</p>}
      <ul>
        {sessions.map((session) => (
          <li key={session.id} className={session.id === current ? 'selected' : ''}>
            {renaming === session.id ? (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (title.trim()) void rename(session.id, title.trim());
                  setRenaming(null);
                }}
              >
                <input
                  autoFocus
                  aria-label="Chat title"
                  value={title}
                  onChange={(event) => setTitle(event.target.value)}
                />
              </form>
            ) : (
              <button
                type="button"
                className="session-open"
                onClick={() => {
                  void open(session.id);
                  onClose();
                }}
              >
                <span className="session-title">{session.title}</span>
                <span className="muted small">
                  {new Date(session.updatedAt).toLocaleString()} · {session.messageCount} messages
                </span>
              </button>
            )}
            <button
              type="button"
              className="icon-button"
              title="Rename"
              aria-label={`Rename ${session.title}`}
              onClick={() => {
                setRenaming(session.id);
                setTitle(session.title);
              }}
            >
              <Pencil size={14} aria-hidden />
            </button>
            <button
              type="button"
              className="icon-button"
              title="Delete"
              aria-label={`Delete ${session.title}`}
              onClick={() => void remove(session.id)}
            >
              <Trash2 size={14} aria-hidden />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
