import type { MessagePart } from '../../shared/chat-domain';
import type { SqliteDatabase } from '../storage/database';

/**
 * Messages' parts, one row per position: a streaming answer changes only its last parts, and saving it
 * writes those rather than the hundreds before them.
 */
export class MessageParts {
  private readonly write;
  private readonly dropFrom;
  private readonly ofMessage;
  private readonly inSession;

  constructor(db: SqliteDatabase) {
    this.write = db.prepare<[number, number, string]>(
      'INSERT OR REPLACE INTO message_parts (message_id, position, part) VALUES (?, ?, ?)',
    );
    this.dropFrom = db.prepare<[number, number]>(
      'DELETE FROM message_parts WHERE message_id = ? AND position >= ?',
    );
    this.ofMessage = db.prepare<[number], { part: string }>(
      'SELECT part FROM message_parts WHERE message_id = ? ORDER BY position',
    );
    this.inSession = db.prepare<[string], { messageId: number; part: string }>(
      `SELECT p.message_id AS messageId, p.part FROM message_parts p JOIN messages m ON m.id = p.message_id
         WHERE m.session_id = ? ORDER BY p.message_id, p.position`,
    );
  }

  /** Writes the parts at `positions`; without them, every part, dropping any stored past the end. */
  save(messageId: number, parts: MessagePart[], positions?: ReadonlySet<number>): void {
    for (const position of positions ?? parts.keys()) {
      const part = parts[position];
      if (part) this.write.run(messageId, position, JSON.stringify(part));
    }
    if (!positions) this.dropFrom.run(messageId, parts.length);
  }

  of(messageId: number): MessagePart[] {
    return this.ofMessage.all(messageId).map(({ part }) => JSON.parse(part) as MessagePart);
  }

  /** The parts of every message in the session, by message id, in one query. */
  ofSession(sessionId: string): Map<number, MessagePart[]> {
    const parts = new Map<number, MessagePart[]>();
    for (const { messageId, part } of this.inSession.all(sessionId)) {
      const list = parts.get(messageId);
      if (list) list.push(JSON.parse(part) as MessagePart);
      else parts.set(messageId, [JSON.parse(part) as MessagePart]);
    }
    return parts;
  }
}
