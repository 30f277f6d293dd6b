import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../../../../shared/chat-domain';
import { useSettingsStore } from '../settings/settings-store';
import { useVaultStore } from '../vault/vault-store';
import { useContextStore } from '../context/context-store';
import { useChatStore } from './chat-store';
import { chatRows } from './chat-rows';
import { CompactionMarker } from './CompactionMarker';
import { Composer } from './Composer';
import { MessageView } from './MessageView';
import { sessionDocuments } from './session-documents';
import { SessionList } from './SessionList';
import { ExportChat } from './ExportChat';
import { HeaderOverflow } from './HeaderOverflow';
import { WritesToggle } from './WritesToggle';
import { SidebarToggle } from '../layout/SidebarToggle';
import { useEscapeLayer } from '../../components/use-escape-layer';
import './chat.css';

/** The conversation: session header, messages with streamed answers, and the composer. */
export function ChatPane() {
  const vault = useVaultStore((state) => state.vault);
  const session = useChatStore((state) => state.session);
  const selected = useChatStore((state) => state.selectedMessageId);
  const error = useChatStore((state) => state.error);
  const deleted = useChatStore((state) => state.deleted);
  const { newChat, undoRemove } = useChatStore.getState();
  const [listShown, setListShown] = useState(false);
  const chatsButton = useRef<HTMLButtonElement>(null);
  useEscapeLayer(
    listShown,
    () => setListShown(false),
    () => chatsButton.current,
  );
  const bottom = useRef<HTMLDivElement>(null);
  const compactResult = useContextStore((state) => state.compactResult);
  const compacting = useContextStore((state) => state.compacting);
  const documents = useMemo(() => (session ? sessionDocuments(session) : new Map()), [session]);
  const messages = useMemo(() => session?.messages ?? [], [session]);
  const rows = useMemo(() => chatRows(messages, session?.compactions ?? []), [messages, session]);
  const lastMessageId = messages.at(-1)?.id ?? null;
  // The result of `/compact` stays until the next message.
  const compactNotice =
    compactResult &&
    compactResult.sessionId === (session?.id ?? null) &&
    compactResult.afterMessageId === lastMessageId
      ? compactResult
      : null;
  const streaming = messages.some((message) => message.status === 'streaming');
  const lastAssistant = messages.filter((message) => message.role === 'assistant').at(-1)?.id ?? null;

  const messageView = (message: ChatMessage) => (
    <MessageView
      key={message.id}
      message={message}
      documents={documents}
      last={message.id === lastAssistant}
      selected={message.id === (selected ?? lastAssistant)}
    />
  );

  const lastParts = messages.at(-1)?.parts.length;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, lastParts, streaming, compactNotice, compacting]);

  return (
    <section className="chat-pane" aria-label="Chat">
      <header className="pane-header chat-header">
        <SidebarToggle sidebar="tree" />
        <button
          ref={chatsButton}
          type="button"
          aria-expanded={listShown}
          onClick={() => setListShown(!listShown)}
        >
          Chats ▾
        </button>
        {/* An empty chat has no title yet; "New chat" is the button's word alone. */}
        <h2 className={`chat-title${session ? '' : ' muted'}`} data-testid="chat-title">
          {session?.title ?? 'Untitled chat'}
        </h2>
        <HeaderOverflow>
          <WritesToggle />
          <ExportChat sessionId={session?.id ?? null} />
        </HeaderOverflow>
        <button type="button" onClick={() => newChat()} disabled={session === null}>
          New chat
        </button>
        <SidebarToggle sidebar="references" />
      </header>
      {listShown && <SessionList onClose={() => setListShown(false)} />}
      {deleted && (
        <p className="banner small" role="status">
          Deleted “{deleted.title}”.{' '}
          <button type="button" className="link-button" onClick={() => void undoRemove()}>
            Undo
          </button>
        </p>
      )}
      <div className="messages" data-testid="messages">
        {messages.length === 0 && (
          <div className="empty-state">
            <h2>Ask your notes</h2>
            <p>
              {vault
                ? `Chat about the ${vault.noteCount} notes in “${vault.name}”. Every answer shows the notes it used.`
                : 'Open a vault to start.'}
            </p>
          </div>
        )}
        {rows.map((row) =>
          row.kind === 'message' ? (
            messageView(row.message)
          ) : (
            <CompactionMarker
              key={`compaction-${row.compaction.id}`}
              compaction={row.compaction}
              count={row.messages.length}
              documents={documents}
            >
              {row.messages.map(messageView)}
            </CompactionMarker>
          ),
        )}
        {compacting && (
          <p className="chat-notice muted small" role="status">
            Compacting…
          </p>
        )}
        {compactNotice && (
          <p
            className={`chat-notice small${compactNotice.failed ? ' message-error' : ''}`}
            role={compactNotice.failed ? 'alert' : 'status'}
            data-testid="compact-notice"
          >
            {compactNotice.text}
          </p>
        )}
        <div ref={bottom} />
      </div>
      {error && (
        <p className="message-error pad" role="alert">
          {error}
          {/Settings/.test(error) && (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={() => useSettingsStore.getState().show(true)}
              >
                Open Settings
              </button>
            </>
          )}
        </p>
      )}
      <Composer streaming={streaming} />
    </section>
  );
}
