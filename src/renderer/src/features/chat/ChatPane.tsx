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
import { ChatCost } from './ChatCost';
import { HeaderOverflow } from './HeaderOverflow';
import { WritesToggle } from './WritesToggle';
import { ChatWritesChoice } from './ChatWritesChoice';
import { SidebarToggle } from '../layout/SidebarToggle';
import { useEscapeLayer } from '../../components/use-escape-layer';
import { anchorAt, holdInPlace, scrollToAnchor, writerOnPause } from '../../components/scroll-anchor';
import { rememberChatScroll, takeRestoredChatScroll } from '../resume/resume';
import './chat.css';

const writeScroll = writerOnPause();
/** Where the reader is in the chat (the message at the top; null at its end), written once scrolling pauses. */
function rememberScroll(sessionId: string, container: HTMLElement) {
  writeScroll(() => {
    const atEnd = container.scrollTop + container.clientHeight >= container.scrollHeight - 2;
    const messages = container.querySelectorAll<HTMLElement>('[data-message-id]');
    const anchor = atEnd
      ? null
      : anchorAt(container, messages, (element) => element.dataset.messageId ?? null);
    rememberChatScroll(sessionId, anchor && { messageId: Number(anchor.key), offset: anchor.offset });
  });
}

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
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, lastParts, streaming, compactNotice, compacting]);
  // After a reload the chat opens where it was read, not at its end.
  const sessionId = session?.id ?? null;
  useEffect(() => {
    const container = list.current;
    const anchor = sessionId && container ? takeRestoredChatScroll(sessionId) : undefined;
    const element =
      anchor && container?.querySelector<HTMLElement>(`[data-message-id="${anchor.messageId}"]`);
    if (!container || !anchor || !element) return;
    return holdInPlace(container, () => scrollToAnchor(container, element, anchor.offset));
  }, [sessionId]);

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
        <ChatCost messages={messages} />
        <HeaderOverflow>
          <WritesToggle />
          <ChatWritesChoice />
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
      <div
        className="messages"
        data-testid="messages"
        ref={list}
        onScroll={(event) => sessionId && rememberScroll(sessionId, event.currentTarget)}
      >
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
