import type { KastenApp } from '../../src/main/app';
import type { ChatMessage } from '../../src/shared/chat-domain';
import { applyDelta, type MessageDelta } from '../../src/shared/chat/message-delta';

/** What a client following one answer's events saw, and what they cost on the wire. */
export interface FollowedAnswer {
  /** The answer as the client holds it after each announcement, last one included. */
  states: ChatMessage[];
  /** Bytes of the `{channel, payload}` frames the browser host sends for this answer. */
  sentBytes: number;
  /** Bytes had every announcement been the whole message with its requests (how answers streamed before). */
  wholeBytes: number;
  deltas: number;
  wholes: number;
  /** Times the client found a delta it could not apply and asked for the whole message. */
  resends: number;
  stop(): void;
}

const frameBytes = (channel: string, payload: unknown) =>
  Buffer.byteLength(JSON.stringify({ channel, payload }));

/**
 * Follows the answers streamed in `app` as the renderer's chat store does: whole messages replace, deltas
 * apply, a delta that does not follow asks `chat:resend`. `drop` loses the deltas it names (by count).
 */
export function followAnswers(
  app: KastenApp,
  drop: (index: number) => boolean = () => false,
): FollowedAnswer {
  const held = new Map<number, ChatMessage>();
  let deltaIndex = 0;
  const followed: FollowedAnswer = {
    states: [],
    sentBytes: 0,
    wholeBytes: 0,
    deltas: 0,
    wholes: 0,
    resends: 0,
    stop: () => unsubscribe(),
  };
  const unsubscribe = app.events.subscribe((channel, payload) => {
    if (channel !== 'chat:message' && channel !== 'chat:delta') return;
    // As the hosts do: what crosses is the serialized payload, not the objects main goes on changing.
    const copy = JSON.parse(JSON.stringify(payload)) as ChatMessage | MessageDelta;
    if (channel === 'chat:message') {
      const message = copy as ChatMessage;
      if (message.role !== 'assistant') return;
      followed.sentBytes += frameBytes(channel, message);
      followed.wholeBytes += frameBytes(channel, message);
      followed.wholes++;
      held.set(message.id, message);
      followed.states.push(message);
      return;
    }
    const delta = copy as MessageDelta;
    followed.sentBytes += frameBytes(channel, delta);
    followed.deltas++;
    if (drop(deltaIndex++)) return;
    const known = held.get(delta.messageId);
    const next = known && applyDelta(known, delta);
    if (!next) {
      followed.resends++;
      void app.handlers['chat:resend']({ sessionId: delta.sessionId, messageId: delta.messageId });
      return;
    }
    held.set(next.id, next);
    followed.states.push(next);
    followed.wholeBytes += frameBytes('chat:message', next);
  });
  return followed;
}

/** The characters of text a delta adds. */
export function appendedText(delta: MessageDelta): number {
  return delta.changes.reduce(
    (sum, change) =>
      sum +
      ('append' in change ? change.append.length : change.part.type === 'text' ? change.part.text.length : 0),
    0,
  );
}

/** A Markdown answer of `words` words in paragraphs, citing nothing. */
export function longAnswer(words: number): string {
  const vocabulary = ['notes', 'vault', 'linked', 'the', 'index', 'answer', 'streams', 'while', 'context'];
  const out: string[] = [];
  for (let index = 0; index < words; index++) {
    out.push(vocabulary[(index * 7) % vocabulary.length]!);
    if (index % 60 === 59) out.push('\n\n');
  }
  return out.join(' ');
}
