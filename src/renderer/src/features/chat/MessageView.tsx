import { messageText, type AttachmentPart, type ChatMessage } from '../../../../shared/chat-domain';
import { SentAttachmentChip } from '../attachments/AttachmentChip';
import { ContextUsed } from '../context/ContextUsed';
import { PromptOrigin, promptOf } from '../prompts/PromptOrigin';
import { useContextStore } from '../context/context-store';
import { connectionProblem, useConnectionStore } from '../connection/connection-store';
import type { CitedDocument } from './AnswerMarkdown';
import { AnswerMarkdown } from './LazyAnswerMarkdown';
import { contextNotices } from './message-notices';
import { useChatStore } from './chat-store';
import { ToolCallView } from './ToolCallView';
import { SentPassage } from '../ask/AskedPassage';
import { WriteApprovalCard } from './WriteApprovalCard';

const statusNotes: Partial<Record<ChatMessage['status'], string>> = {
  stopped: 'Stopped. The answer so far is kept.',
  interrupted: 'Interrupted when Kasten stopped. The text saved until then is kept.',
};

/** One message of the conversation: the user's words, or an answer with its tool calls and citations. */
export function MessageView({
  message,
  documents,
  last,
  selected,
}: {
  message: ChatMessage;
  documents: Map<number, CitedDocument>;
  last: boolean;
  selected: boolean;
}) {
  const retry = useChatStore((state) => state.retry);
  const select = useChatStore((state) => state.select);
  const newChat = useChatStore((state) => state.newChat);
  const compact = useContextStore((state) => state.compact);
  const connectionState = useConnectionStore((state) => state.state);
  // An answer to a saved prompt shows in Context used what the prompt's variables put in.
  const prompt = useChatStore((state) =>
    promptOf(
      message.role === 'user'
        ? message
        : state.session?.messages.findLast((entry) => entry.role === 'user' && entry.id < message.id),
    ),
  );
  if (message.role === 'user') {
    const files = message.parts.filter((part): part is AttachmentPart => part.type === 'attachment');
    const asked = message.parts.find((part) => part.type === 'selection');
    return (
      <article className="message message-user" data-testid="user-message" data-message-id={message.id}>
        {asked && (
          <SentPassage
            selection={asked.selection}
            title={
              message.references.find((reference) => reference.kind === 'selection')?.title ??
              asked.selection.path.replace(/\.md$/i, '')
            }
          />
        )}
        <div className="message-text">{messageText(message)}</div>
        {prompt && <PromptOrigin prompt={prompt} />}
        {files.length > 0 && (
          <ul className="message-attachments" aria-label="Attached files">
            {files.map((part) => (
              <li key={part.attachment.id}>
                <SentAttachmentChip file={part.attachment} />
              </li>
            ))}
          </ul>
        )}
      </article>
    );
  }
  const streaming = message.status === 'streaming';
  const offline = connectionProblem(connectionState) !== null;
  const failed =
    message.status === 'error' || message.status === 'stopped' || message.status === 'interrupted';
  return (
    <article
      className={`message message-assistant${selected ? ' selected' : ''}`}
      data-testid="assistant-message"
      data-message-id={message.id}
      data-status={message.status}
      onClick={() => select(message.id)}
    >
      {contextNotices(message).map((notice) => (
        <p key={notice} className="message-notice small" data-testid="context-notice">
          {notice}
        </p>
      ))}
      {message.parts.map((part, index) =>
        part.type === 'tool-call' && part.approval ? (
          <WriteApprovalCard
            key={part.id}
            messageId={message.id}
            call={part}
            approval={part.approval}
            waiting={streaming}
          />
        ) : part.type === 'tool-call' ? (
          <ToolCallView key={part.id} call={part} />
        ) : part.type === 'text' ? (
          <AnswerMarkdown
            key={index}
            text={part.text}
            streaming={streaming && index === message.parts.length - 1}
            documents={documents}
          />
        ) : null,
      )}
      {streaming && offline && (
        <p className="message-error" role="status" data-testid="connection-lost-notice">
          {connectionState === 'refused'
            ? 'Connection to Kasten lost. Kasten was restarted: its new address shows what it saved of this answer.'
            : 'Connection to Kasten lost. The answer so far is shown; what Kasten saved of it comes back with it.'}
        </p>
      )}
      {streaming && !offline && (
        <span className="typing" aria-label="Writing">
          …
        </span>
      )}
      {message.status === 'error' && (
        <p className="message-error" role="alert">
          {message.error}
        </p>
      )}
      {statusNotes[message.status] && (
        <p className="muted small">
          {message.status === 'stopped' && message.parts.length === 0
            ? 'Stopped before the answer began.'
            : statusNotes[message.status]}
        </p>
      )}
      {failed && last && (
        <div className="message-actions">
          <button type="button" onClick={() => void retry()}>
            Retry
          </button>
          {message.status === 'error' && message.requests.at(-1)?.overflow && (
            <>
              <button type="button" data-testid="overflow-compact" onClick={() => void compact(null)}>
                Compact the chat
              </button>
              <button type="button" data-testid="overflow-new-chat" onClick={() => newChat()}>
                New chat
              </button>
            </>
          )}
        </div>
      )}
      {!streaming && message.requests.length > 0 && (
        <ContextUsed requests={message.requests} usage={message.usage} prompt={prompt} />
      )}
    </article>
  );
}
