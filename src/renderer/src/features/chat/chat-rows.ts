import type { ChatMessage } from '../../../../shared/chat-domain';
import type { SessionCompaction } from '../../../../shared/context-domain';

export type ChatRow =
  | { kind: 'message'; message: ChatMessage }
  /** The newest compaction, where the first message it covers was, with the messages it covers. */
  | { kind: 'compaction'; compaction: SessionCompaction; messages: ChatMessage[] };

/** The newest compaction: the last made (they come oldest first; ids break a tie in case they do not). */
export function newestCompaction(compactions: readonly SessionCompaction[]): SessionCompaction | null {
  let newest: SessionCompaction | null = null;
  for (const compaction of compactions) {
    if (!newest || compaction.id > newest.id) newest = compaction;
  }
  return newest;
}

/**
 * The conversation as rows: the messages the newest compaction covers (each compaction includes the
 * older ones' messages) are gathered behind one marker standing where the first of them was.
 */
export function chatRows(
  messages: readonly ChatMessage[],
  compactions: readonly SessionCompaction[],
): ChatRow[] {
  const compaction = newestCompaction(compactions);
  const covered = new Set(compaction?.coveredIds ?? []);
  const collapsed = messages.filter((message) => covered.has(message.id));
  const rows: ChatRow[] = [];
  let placed = false;
  for (const message of messages) {
    if (!covered.has(message.id)) {
      rows.push({ kind: 'message', message });
    } else if (!placed && compaction) {
      rows.push({ kind: 'compaction', compaction, messages: collapsed });
      placed = true;
    }
  }
  return rows;
}

/** "1 earlier message summarized", "6 earlier messages summarized". */
export function compactionLabel(count: number): string {
  return `${count} earlier ${count === 1 ? 'message' : 'messages'} summarized`;
}
