import { randomUUID } from 'node:crypto';
import type {
  ChatMessage,
  ChatSession,
  MessagePart,
  MessageStatus,
  SessionDocument,
  SessionSummary,
  TokenUsage,
} from '../../shared/chat-domain';
import { AppError } from '../app-error';
import type { SqliteDatabase, SqliteStatement } from '../storage/database';
import { SessionUsage } from './session-usage';
import type { AnswerOwner } from './answer-owner';
import { ContextRecords } from '../request/record/context-records';
import { MessageParts } from './message-parts';
import { MessageReferences } from './message-references';
import { StreamingAnswers } from './streaming-answers';

interface MessageRow {
  id: number;
  sessionId: string;
  role: 'user' | 'assistant';
  status: MessageStatus;
  model: string | null;
  error: string | null;
  usage: string | null;
  createdAt: string;
  updatedAt: string;
}

const messageColumns = `id, session_id AS sessionId, role, status, model, error, usage,
  created_at AS createdAt, updated_at AS updatedAt`;

const sessionColumns = `s.id, s.title, s.created_at AS createdAt, s.updated_at AS updatedAt,
  (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS messageCount`;

/** Sessions, messages, references and numbered documents in the app database. */
export class ChatStore {
  /** Prepared once: preparing costs about as much as running these small queries. */
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly parts: MessageParts;
  /** Who writes the answers still streaming, and marking those nobody writes any more. */
  readonly streaming: StreamingAnswers;
  /** Strategies, request contexts, compactions and calibrations. */
  readonly contexts: ContextRecords;
  /** The notes each message used. */
  readonly references: MessageReferences;
  /** Each session's tokens and cost. */
  readonly usage: SessionUsage;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.parts = new MessageParts(db);
    this.streaming = new StreamingAnswers(db);
    this.contexts = new ContextRecords(db, now);
    this.references = new MessageReferences(db);
    this.usage = new SessionUsage(db);
  }

  createSession(vault: string, title: string): SessionSummary {
    const id = randomUUID();
    const at = this.now().toISOString();
    this.prepare(
      'INSERT INTO sessions (id, vault, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ).run(id, vault, title, at, at);
    return { id, title, createdAt: at, updatedAt: at, messageCount: 0 };
  }

  /** The vault's sessions, most recently used first; `query` matches titles and message text. */
  listSessions(vault: string, query = ''): SessionSummary[] {
    const like = `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    return this.prepare<[string, string, string, string], SessionSummary>(
      `SELECT ${sessionColumns} FROM sessions s
         WHERE s.vault = ? AND s.deleted_at IS NULL
           AND (? = '' OR s.title LIKE ? ESCAPE '\\'
                OR EXISTS (SELECT 1 FROM messages m JOIN message_parts p ON p.message_id = m.id
                           WHERE m.session_id = s.id AND p.part LIKE ? ESCAPE '\\'))
         ORDER BY s.updated_at DESC, s.rowid DESC`,
    ).all(vault, query, like, like);
  }

  /** The session without its messages; deleted sessions are not found. */
  sessionSummary(id: string): SessionSummary {
    const summary = this.prepare<[string], SessionSummary>(
      `SELECT ${sessionColumns} FROM sessions s WHERE s.id = ? AND s.deleted_at IS NULL`,
    ).get(id);
    if (!summary) throw new AppError('not-found', `There is no chat session ${id}.`);
    return summary;
  }

  /** The session with every message; deleted sessions are not found. */
  session(id: string): ChatSession {
    const summary = this.sessionSummary(id);
    // One query each for every message's references, parts and requests: one per message cost 40 ms
    // in a 500-message session.
    const references = this.references.ofSession(id);
    const parts = this.parts.ofSession(id);
    const requests = this.contexts.requestsOfSession(id);
    const messages = this.prepare<[string], MessageRow>(
      `SELECT ${messageColumns} FROM messages WHERE session_id = ? ORDER BY id`,
    )
      .all(id)
      .map((row) =>
        this.toMessage(
          row,
          references.get(row.id) ?? [],
          parts.get(row.id) ?? [],
          requests.get(row.id) ?? [],
        ),
      );
    return {
      ...summary,
      messages,
      documents: this.documents(id),
      strategy: this.contexts.strategy(id),
      compactions: this.contexts.compactions(id),
    };
  }

  /** The vault a session belongs to. */
  vaultOf(id: string): string {
    const row = this.prepare<[string], { vault: string }>('SELECT vault FROM sessions WHERE id = ?').get(id);
    if (!row) throw new AppError('not-found', `There is no chat session ${id}.`);
    return row.vault;
  }

  rename(id: string, title: string): void {
    this.changeSession('UPDATE sessions SET title = ? WHERE id = ? AND deleted_at IS NULL', title, id);
  }

  /** Hides the session; `restore` brings it back (undo). */
  delete(id: string): void {
    this.changeSession(
      'UPDATE sessions SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
      this.now().toISOString(),
      id,
    );
  }

  restore(id: string): void {
    this.changeSession('UPDATE sessions SET deleted_at = NULL WHERE id = ?', id);
  }

  /** Adds a message; a streaming one records the process writing it and the lease that process holds. */
  addMessage(
    sessionId: string,
    message: {
      role: 'user' | 'assistant';
      parts: MessagePart[];
      status: MessageStatus;
      model: string | null;
      owner?: { owner: AnswerOwner; leaseUntil: number };
    },
  ): ChatMessage {
    const at = this.now().toISOString();
    const { owner, leaseUntil } = message.owner ?? {
      owner: { pid: null, host: null, run: null },
      leaseUntil: null,
    };
    const id = this.db.transaction(() => {
      const result = this.prepare(
        `INSERT INTO messages (session_id, role, status, model, created_at, updated_at,
                               owner_pid, owner_host, owner_run, lease_until)
           VALUES (@sessionId, @role, @status, @model, @at, @at, @pid, @host, @run, @leaseUntil)`,
      ).run({
        sessionId,
        role: message.role,
        status: message.status,
        model: message.model,
        at,
        ...owner,
        leaseUntil,
      });
      const id = Number(result.lastInsertRowid);
      this.parts.save(id, message.parts);
      this.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(at, sessionId);
      return id;
    })();
    return this.message(id);
  }

  /**
   * Saves the changes given. With `changedParts`, only the parts at those positions are written: a
   * streaming answer saves what changed since its last save, not the hundreds of parts before.
   */
  updateMessage(
    id: number,
    change: {
      parts?: MessagePart[];
      changedParts?: ReadonlySet<number>;
      status?: MessageStatus;
      error?: string | null;
      usage?: TokenUsage;
    },
  ): void {
    const at = this.now().toISOString();
    this.db.transaction(() => {
      if (change.parts) this.parts.save(id, change.parts, change.changedParts);
      this.prepare(
        `UPDATE messages SET status = coalesce(@status, status),
             error = CASE WHEN @setError THEN @error ELSE error END, usage = coalesce(@usage, usage),
             updated_at = @at
           WHERE id = @id`,
      ).run({
        id,
        at,
        status: change.status ?? null,
        setError: change.error !== undefined ? 1 : 0,
        error: change.error ?? null,
        usage: change.usage ? JSON.stringify(change.usage) : null,
      });
    })();
  }

  message(id: number): ChatMessage {
    const row = this.prepare<[number], MessageRow>(`SELECT ${messageColumns} FROM messages WHERE id = ?`).get(
      id,
    );
    if (!row) throw new AppError('not-found', `There is no message ${id}.`);
    return this.toMessage(row);
  }

  /** The note's number in the session, numbering it on first use. */
  documentNumber(sessionId: string, path: string, title: string): number {
    return this.db.transaction(() => {
      const found = this.prepare<[string, string], { number: number }>(
        'SELECT number FROM session_documents WHERE session_id = ? AND path = ?',
      ).get(sessionId, path);
      if (found) return found.number;
      const { next } = this.prepare<[string], { next: number }>(
        'SELECT coalesce(max(number), 0) + 1 AS next FROM session_documents WHERE session_id = ?',
      ).get(sessionId)!;
      this.prepare('INSERT INTO session_documents (session_id, number, path, title) VALUES (?, ?, ?, ?)').run(
        sessionId,
        next,
        path,
        title,
      );
      return next;
    })();
  }

  documents(sessionId: string): SessionDocument[] {
    return this.prepare<[string], SessionDocument>(
      'SELECT number, path, title FROM session_documents WHERE session_id = ? ORDER BY number',
    ).all(sessionId);
  }

  private changeSession(sql: string, ...parameters: string[]): void {
    if (this.prepare(sql).run(...parameters).changes === 0) {
      throw new AppError('not-found', `There is no chat session ${parameters.at(-1)}.`);
    }
  }

  private toMessage(
    row: MessageRow,
    references = this.references.of(row.id),
    parts = this.parts.of(row.id),
    requests = this.contexts.requestsOfMessage(row.id),
  ): ChatMessage {
    return {
      ...row,
      parts,
      usage: row.usage ? (JSON.parse(row.usage) as TokenUsage) : null,
      references,
      requests,
    };
  }

  private prepare<Parameters extends unknown[] = unknown[], Row = unknown>(
    sql: string,
  ): SqliteStatement<Parameters, Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as unknown as SqliteStatement<Parameters, Row>;
  }
}
