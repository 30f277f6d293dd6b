import type { ChatReference } from '../../shared/chat-domain';
import type { SqliteDatabase } from '../storage/database';

/** A linked note as a request gave it: the note itself (whole or cut) or a stand-in, and its tokens. */
export interface DirectCost {
  path: string;
  tokens: number;
  mode: 'inline' | 'summary';
}

const columns = `r.path, r.title, r.kind, r.tool_call_id AS toolCallId, r.document, r.subpath, r.mode, r.tokens,
  r.summary, r.via_alias AS viaAlias`;

/** A reference as stored: no `viaAlias` when it has none, as the ones written never had. */
function asReference<Row extends ChatReference>(row: Row): Row {
  if (row.viaAlias === null) delete row.viaAlias;
  return row;
}

/** The notes each message used, one row per note and kind (the first one recorded wins). */
export class MessageReferences {
  private readonly statements;

  constructor(private readonly db: SqliteDatabase) {
    this.statements = {
      insert: db.prepare(
        `INSERT OR IGNORE INTO message_references
           (message_id, path, title, kind, tool_call_id, document, subpath, mode, tokens, summary, via_alias)
         VALUES (@messageId, @path, @title, @kind, @toolCallId, @document, @subpath, @mode, @tokens, @summary,
                 @viaAlias)`,
      ),
      ofMessage: db.prepare<[number], ChatReference>(
        `SELECT ${columns} FROM message_references r WHERE r.message_id = ? ORDER BY r.rowid`,
      ),
      ofSession: db.prepare<[string], ChatReference & { messageId: number }>(
        `SELECT r.message_id AS messageId, ${columns}
           FROM message_references r JOIN messages m ON m.id = r.message_id
           WHERE m.session_id = ? ORDER BY r.rowid`,
      ),
      directCost: db.prepare<[number, DirectCost['mode'], number, string]>(
        `UPDATE message_references SET tokens = ?, mode = ? WHERE message_id = ? AND path = ? AND kind = 'direct'`,
      ),
    };
  }

  add(messageId: number, references: readonly ChatReference[]): void {
    this.db.transaction(() => {
      for (const reference of references)
        this.statements.insert.run({ messageId, ...reference, viaAlias: reference.viaAlias ?? null });
    })();
  }

  of(messageId: number): ChatReference[] {
    return this.statements.ofMessage.all(messageId).map(asReference);
  }

  /** Every message's references in the session, by message id: one query for the whole session. */
  ofSession(sessionId: string): Map<number, ChatReference[]> {
    const byMessage = new Map<number, ChatReference[]>();
    for (const { messageId, ...reference } of this.statements.ofSession.all(sessionId).map(asReference)) {
      const list = byMessage.get(messageId);
      if (list) list.push(reference);
      else byMessage.set(messageId, [reference]);
    }
    return byMessage;
  }

  /** What each note a question linked cost in the request, and in what form, once it was planned. */
  setDirectCosts(messageId: number, costs: readonly DirectCost[]): void {
    this.db.transaction(() => {
      for (const { path, tokens, mode } of costs)
        this.statements.directCost.run(tokens, mode, messageId, path);
    })();
  }
}
