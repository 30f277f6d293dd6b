import type { ContextStrategy, RequestContext, SessionCompaction } from '../../../shared/context-domain';
import { AppError } from '../../app-error';
import type { Calibration, CalibrationStore, StoredCalibration } from '../count/calibration';
import type { SqliteDatabase } from '../../storage/database';
import { SettingsTable } from '../../storage/settings-table';

interface CompactionRow {
  id: number;
  text: string;
  coveredIds: string;
  tokens: number;
  replacedTokens: number;
  focus: string | null;
  createdAt: string;
}

/**
 * What the context engine keeps in the app database: each session's strategy, what every request of
 * an answer held, the summaries made of older messages, and each model's calibration.
 */
export class ContextRecords implements CalibrationStore {
  private readonly settings: SettingsTable;
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.settings = new SettingsTable(db);
    this.statements = {
      strategy: db.prepare<[string], { strategy: ContextStrategy }>(
        'SELECT strategy FROM sessions WHERE id = ?',
      ),
      setStrategy: db.prepare<[string, string]>('UPDATE sessions SET strategy = ? WHERE id = ?'),
      putRequest: db.prepare<[number, number, string]>(
        'INSERT OR REPLACE INTO request_contexts (message_id, position, context) VALUES (?, ?, ?)',
      ),
      requestsOfSession: db.prepare<[string], { messageId: number; context: string }>(
        `SELECT r.message_id AS messageId, r.context FROM request_contexts r
           JOIN messages m ON m.id = r.message_id WHERE m.session_id = ? ORDER BY r.message_id, r.position`,
      ),
      requestsOfMessage: db.prepare<[number], { context: string }>(
        'SELECT context FROM request_contexts WHERE message_id = ? ORDER BY position',
      ),
      addCompaction: db.prepare(
        `INSERT INTO compactions (session_id, text, covered_ids, tokens, replaced_tokens, focus, created_at)
           VALUES (@sessionId, @text, @coveredIds, @tokens, @replacedTokens, @focus, @createdAt)`,
      ),
      // Answers still streaming count by their requests alone: their text is not in the next request.
      version: db.prepare<[{ session: string }], { version: string }>(
        `SELECT json_array(
           (SELECT json_array(deleted_at, strategy) FROM sessions WHERE id = @session),
           (SELECT json_array(count(*), max(id), max(CASE WHEN status != 'streaming' THEN updated_at END),
                              total(status = 'streaming'))
              FROM messages WHERE session_id = @session),
           (SELECT json_group_array(context) FROM request_contexts WHERE message_id =
              (SELECT m.id FROM messages m WHERE m.session_id = @session
                 AND EXISTS (SELECT 1 FROM request_contexts r WHERE r.message_id = m.id)
               ORDER BY m.id DESC LIMIT 1)),
           (SELECT json_array(count(*), max(id)) FROM compactions WHERE session_id = @session)
         ) AS version`,
      ),
      compactions: db.prepare<[string], CompactionRow>(
        `SELECT id, text, covered_ids AS coveredIds, tokens, replaced_tokens AS replacedTokens, focus,
                created_at AS createdAt
           FROM compactions WHERE session_id = ? ORDER BY id`,
      ),
    };
  }

  strategy(sessionId: string): ContextStrategy {
    return this.statements.strategy.get(sessionId)?.strategy ?? 'hybrid';
  }

  setStrategy(sessionId: string, strategy: ContextStrategy): void {
    if (this.statements.setStrategy.run(strategy, sessionId).changes === 0) {
      throw new AppError('not-found', `There is no chat session ${sessionId}.`);
    }
  }

  /** Records what the `position`th request of an answer held (again, once the provider reported usage). */
  putRequest(messageId: number, position: number, context: RequestContext): void {
    this.statements.putRequest.run(messageId, position, JSON.stringify(context));
  }

  requestsOfMessage(messageId: number): RequestContext[] {
    return this.statements.requestsOfMessage
      .all(messageId)
      .map((row) => JSON.parse(row.context) as RequestContext);
  }

  /** Every request of the session's answers, by message id: one query for the whole session. */
  requestsOfSession(sessionId: string): Map<number, RequestContext[]> {
    const byMessage = new Map<number, RequestContext[]>();
    for (const { messageId, context } of this.statements.requestsOfSession.all(sessionId)) {
      const list = byMessage.get(messageId);
      const parsed = JSON.parse(context) as RequestContext;
      if (list) list.push(parsed);
      else byMessage.set(messageId, [parsed]);
    }
    return byMessage;
  }

  /**
   * What a session's next request is planned from, as a key that changes whenever it does: a message
   * added, changed or finished, the last answer's requests recorded, the strategy, a compaction.
   */
  version(sessionId: string): string {
    return this.statements.version.get({ session: sessionId })?.version ?? '';
  }

  addCompaction(
    sessionId: string,
    compaction: Omit<SessionCompaction, 'id' | 'createdAt'>,
  ): SessionCompaction {
    const createdAt = this.now().toISOString();
    const id = Number(
      this.statements.addCompaction.run({
        sessionId,
        ...compaction,
        coveredIds: JSON.stringify(compaction.coveredIds),
        createdAt,
      }).lastInsertRowid,
    );
    return { ...compaction, id, createdAt };
  }

  /** The session's compactions, oldest first; the newest stands for the messages it covers. */
  compactions(sessionId: string): SessionCompaction[] {
    return this.statements.compactions
      .all(sessionId)
      .map((row) => ({ ...row, coveredIds: JSON.parse(row.coveredIds) as number[] }));
  }

  get(modelKey: string): StoredCalibration | null {
    const stored = this.settings.get(`calibration ${modelKey}`);
    return stored === null ? null : (JSON.parse(stored) as StoredCalibration);
  }

  put(modelKey: string, calibration: Calibration): void {
    this.settings.put(`calibration ${modelKey}`, JSON.stringify(calibration));
  }
}
