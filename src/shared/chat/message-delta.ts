import type { ChatMessage, MessagePart } from '../chat-domain';

/** One part of a streaming answer as it changed since the last announcement. */
export type PartChange =
  /** Text added at the end of the text part at `position`. */
  | { position: number; append: string }
  /** A part added at `position` (the next one), or one that changed otherwise, whole. */
  | { position: number; part: MessagePart };

/**
 * What changed in a streaming answer since its previous announcement (`sequence - 1`, a `chat:message`
 * or a `chat:delta`). A client holding another sequence has missed one and asks for the whole message.
 */
export interface MessageDelta {
  sessionId: string;
  messageId: number;
  sequence: number;
  changes: PartChange[];
  updatedAt: string;
}

/**
 * The message with the delta applied, or null when it cannot be: the message is not at the sequence
 * before the delta's, or a change does not fit its parts. Null means "read the whole message again".
 */
export function applyDelta(message: ChatMessage, delta: MessageDelta): ChatMessage | null {
  if (message.id !== delta.messageId || message.sequence !== delta.sequence - 1) return null;
  const parts = [...message.parts];
  for (const change of delta.changes) {
    if (change.position > parts.length) return null;
    if ('part' in change) {
      parts[change.position] = change.part;
      continue;
    }
    const part = parts[change.position];
    if (part?.type !== 'text') return null;
    parts[change.position] = { ...part, text: part.text + change.append };
  }
  return { ...message, parts, sequence: delta.sequence, updatedAt: delta.updatedAt };
}
