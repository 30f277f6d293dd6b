import type { WriteKind } from '../../shared/chat-domain';
import type { SqliteDatabase } from '../storage/database';
import { noteHash, type CommittedWrite } from '../vault/note-writes';

/** One write Kasten made for a chat, as kept for its undo. */
export interface WriteRecord {
  id: number;
  sessionId: string;
  /** The answer and tool call that made it; null for an export. */
  messageId: number | null;
  callId: string | null;
  vault: string;
  kind: WriteKind;
  /** The vault path of the file written. */
  path: string;
  /** Its bytes before; null: there was no file. */
  previous: Buffer | null;
  writtenHash: string;
  undoneAt: string | null;
}

const columns = `id, session_id AS sessionId, message_id AS messageId, call_id AS callId, vault, kind, path,
  previous, written_hash AS writtenHash, undone_at AS undoneAt`;

/** The writes of every chat with the bytes they replaced (`write_records`), and their undoing. */
export class WriteRecords {
  private readonly insert;
  private readonly byCall;
  private readonly ofSession;
  private readonly laterOf;
  private readonly markRecord;
  private readonly markPart;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date = () => new Date(),
  ) {
    // A write call runs inside its answer, the session's one streaming assistant message.
    this.insert = db.prepare(
      `INSERT INTO write_records
         (session_id, message_id, call_id, vault, kind, path, previous, written_hash, written_at)
       VALUES (@sessionId,
         CASE WHEN @callId IS NULL THEN NULL ELSE (SELECT id FROM messages WHERE session_id = @sessionId
           AND role = 'assistant' AND status = 'streaming' ORDER BY id DESC LIMIT 1) END,
         @callId, @vault, @kind, @path, @previous, @writtenHash, @at)`,
    );
    this.byCall = db.prepare<[string, number, string], WriteRecord>(
      `SELECT ${columns} FROM write_records WHERE session_id = ? AND message_id = ? AND call_id = ?
         ORDER BY id DESC LIMIT 1`,
    );
    this.ofSession = db.prepare<[string], WriteRecord>(
      `SELECT ${columns} FROM write_records WHERE session_id = ? AND undone_at IS NULL ORDER BY id DESC`,
    );
    this.laterOf = db.prepare<[string, string, number], { sessionId: string }>(
      `SELECT session_id AS sessionId FROM write_records
         WHERE vault = ? AND path = ? AND id > ? AND undone_at IS NULL ORDER BY id LIMIT 1`,
    );
    this.markRecord = db.prepare<[string, number]>(
      'UPDATE write_records SET undone_at = ? WHERE id = ? AND undone_at IS NULL',
    );
    this.markPart = db.prepare<[string, number, string]>(
      `UPDATE message_parts
         SET part = json_set(part, '$.approval.state', 'undone', '$.output',
                             coalesce(json_extract(part, '$.output'), '') || ?)
         WHERE message_id = ? AND json_extract(part, '$.type') = 'tool-call'
           AND json_extract(part, '$.id') = ?`,
    );
  }

  /** Keeps what a write replaced; `callId` null for an export. */
  add(
    write: { sessionId: string; callId: string | null; vault: string; kind: WriteKind },
    committed: CommittedWrite,
  ): void {
    this.insert.run({
      ...write,
      path: committed.path,
      previous: committed.previous,
      writtenHash: noteHash(committed.written),
      at: this.now().toISOString(),
    });
  }

  /** The write a tool call made, if it was recorded. */
  ofCall(sessionId: string, messageId: number, callId: string): WriteRecord | undefined {
    return this.byCall.get(sessionId, messageId, callId);
  }

  /** The chat's writes not undone yet, newest first. */
  pending(sessionId: string): WriteRecord[] {
    return this.ofSession.all(sessionId);
  }

  /** The chat of a later write to the same file not undone yet, if there is one. */
  laterWrite(record: WriteRecord): string | null {
    return this.laterOf.get(record.vault, record.path, record.id)?.sessionId ?? null;
  }

  /**
   * Marks the write undone; a tool call's part too, its result for the model gaining `told` (later
   * requests of the chat then say the change was taken back).
   */
  undone(record: WriteRecord, told: string): void {
    this.db.transaction(() => {
      this.markRecord.run(this.now().toISOString(), record.id);
      if (record.messageId !== null && record.callId !== null) {
        this.markPart.run(` ${told}`, record.messageId, record.callId);
      }
    })();
  }
}
