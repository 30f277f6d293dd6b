import type { ChatWriteChoice } from '../../shared/chat-writes-contract';
import { AppError } from '../app-error';
import type { SqliteDatabase } from '../storage/database';

/** Each chat's choice about writes, kept with the session (and gone with it). */
export class ChatWriteChoices {
  constructor(private readonly db: SqliteDatabase) {}

  /** The chat's choice; an error for a chat that does not exist. */
  of(sessionId: string): ChatWriteChoice {
    const row = this.db
      .prepare<[string], { writes: string }>(
        'SELECT writes FROM sessions WHERE id = ? AND deleted_at IS NULL',
      )
      .get(sessionId);
    if (!row) throw new AppError('not-found', 'This chat does not exist (it may have been deleted).');
    return row.writes === 'allow' ? 'allow' : 'ask';
  }

  /** Whether the chat's writes go ahead without asking; false for a chat that does not exist. */
  allows(sessionId: string): boolean {
    const row = this.db
      .prepare<[string], { writes: string }>('SELECT writes FROM sessions WHERE id = ?')
      .get(sessionId);
    return row?.writes === 'allow';
  }

  set(sessionId: string, choice: ChatWriteChoice): void {
    const changed = this.db
      .prepare('UPDATE sessions SET writes = ? WHERE id = ? AND deleted_at IS NULL')
      .run(choice, sessionId).changes;
    if (changed === 0)
      throw new AppError('not-found', 'This chat does not exist (it may have been deleted).');
  }
}
