import type { ChatMessage, MessagePart } from '../../shared/chat-domain';
import type { PartChange } from '../../shared/chat/message-delta';
import type { AppEvents } from '../app-events';

/** A part as last announced: a text part's text (it grows by appending), any other part serialized. */
type SentPart = { step: number; text: string } | { json: string };

/**
 * Announces a streaming answer: the whole message first, then only the text it gained (`chat:delta`:
 * text appended, text parts added), and the whole message again when anything else changed (a tool
 * call, the requests, references or usage, parts dropped) or a client asks for it.
 */
export class AnswerAnnouncer {
  private sequence = 0;
  private sent: SentPart[] = [];
  private sentRest = '';
  private wholeNeeded = true;

  constructor(
    private readonly events: AppEvents,
    /** The answer as it is now, built from memory. */
    private readonly current: () => ChatMessage,
  ) {}

  /** The next announcement sends the whole message (its requests changed, a client missed a delta). */
  needWhole(): void {
    this.wholeNeeded = true;
  }

  /** Announces what changed since the last announcement, if anything did. */
  announce(): void {
    const message = this.current();
    const rest = restOf(message);
    const changes = this.wholeNeeded || rest !== this.sentRest ? null : this.changes(message.parts);
    if (changes === null) return this.whole(message, rest);
    if (changes.length === 0) return;
    this.remember(message.parts);
    this.events.emit('chat:delta', {
      sessionId: message.sessionId,
      messageId: message.id,
      sequence: ++this.sequence,
      changes,
      updatedAt: message.updatedAt,
    });
  }

  private whole(message: ChatMessage, rest: string): void {
    this.wholeNeeded = false;
    this.sentRest = rest;
    this.remember(message.parts);
    // A copy: the answer's parts go on changing in memory after this event.
    this.events.emit('chat:message', {
      ...message,
      parts: structuredClone(message.parts),
      references: [...message.references],
      requests: [...message.requests],
      sequence: ++this.sequence,
    });
  }

  /** The text parts' changes since they were last sent; null when another part changed or parts were dropped. */
  private changes(parts: readonly MessagePart[]): PartChange[] | null {
    if (parts.length < this.sent.length) return null;
    const changes: PartChange[] = [];
    let whole = false;
    parts.forEach((part, position) => {
      const sent = this.sent[position];
      if (sent && 'text' in sent && part.type === 'text' && part.step === sent.step) {
        if (part.text === sent.text) return;
        if (part.text.startsWith(sent.text)) {
          changes.push({ position, append: part.text.slice(sent.text.length) });
          return;
        }
      } else if (part.type !== 'text') {
        if (sent && 'json' in sent && JSON.stringify(part) === sent.json) return;
        // A tool call started, ran or waits for approval: rare, and its listeners want the message.
        whole = true;
        return;
      }
      changes.push({ position, part: structuredClone(part) });
    });
    return whole ? null : changes;
  }

  private remember(parts: readonly MessagePart[]): void {
    this.sent = parts.map((part) =>
      part.type === 'text' ? { step: part.step, text: part.text } : { json: JSON.stringify(part) },
    );
  }
}

/** Everything of a message a delta does not carry; when it changes, the whole message is sent. */
function restOf(message: ChatMessage): string {
  return JSON.stringify([message.status, message.error, message.usage, message.references]);
}
