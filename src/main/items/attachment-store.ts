import type { AttachmentText } from '../../shared/attachment-domain';
import type { AttachmentInfo } from '../../shared/context-items-domain';
import type { SqliteDatabase } from '../storage/database';

/** A file attached to a message with its text, as the model is given it. */
export interface StoredAttachment extends AttachmentInfo {
  language: string | null;
  text: string;
}

type Row = Omit<StoredAttachment, 'truncated'> & { truncated: number };

const columns = `a.id, a.message_id AS messageId, a.name, a.kind, a.language, a.pages, a.bytes, a.truncated,
  a.tokens, a.text, a.url, a.document`;

const fromRow = (row: Row): StoredAttachment => ({ ...row, truncated: row.truncated === 1 });

/** The files attached to messages: their text stays with the message it was sent with. */
export class AttachmentStore {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      insert: db.prepare<
        [
          number,
          string,
          string,
          string | null,
          number | null,
          number,
          number,
          number,
          string,
          string | null,
          number | null,
        ]
      >(
        `INSERT INTO message_attachments
           (message_id, name, kind, language, pages, bytes, truncated, tokens, text, url, document)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      ofSession: db.prepare<[string], Row>(
        `SELECT ${columns} FROM message_attachments a JOIN messages m ON m.id = a.message_id
         WHERE m.session_id = ? ORDER BY a.id`,
      ),
      one: db.prepare<[number, string], Row>(
        `SELECT ${columns} FROM message_attachments a JOIN messages m ON m.id = a.message_id
         WHERE a.id = ? AND m.session_id = ?`,
      ),
    };
  }

  /** `document`: a web page's number in the session, for citations. */
  add(
    messageId: number,
    file: AttachmentText,
    tokens: number,
    document: number | null = null,
  ): StoredAttachment {
    const { name, kind, language, pages, bytes, truncated, text } = file;
    const url = file.url ?? null;
    const id = Number(
      this.statements.insert.run(
        messageId,
        name,
        kind,
        language,
        pages,
        bytes,
        truncated ? 1 : 0,
        tokens,
        text,
        url,
        document,
      ).lastInsertRowid,
    );
    return { id, messageId, name, kind, language, pages, bytes, truncated, tokens, text, url, document };
  }

  /** Every file attached in the session, oldest first. */
  ofSession(sessionId: string): StoredAttachment[] {
    return this.statements.ofSession.all(sessionId).map(fromRow);
  }

  /** One of the session's files; null when the session has none of that id. */
  get(sessionId: string, id: number): StoredAttachment | null {
    const row = this.statements.one.get(id, sessionId);
    return row ? fromRow(row) : null;
  }
}
