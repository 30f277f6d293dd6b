import { join } from 'node:path';
import { openDatabase, type Migration, type SqliteDatabase } from './database';

/** Schema of the app-wide database (`kasten.sqlite` in the data directory). Append only. */
export const appMigrations: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE recent_vaults (
        path TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        opened_at TEXT NOT NULL
      );
    `),
  // Chat sessions of every vault. Messages keep their parts as JSON; references and the session's
  // numbered documents are rows so the reference panel can query them.
  (db) =>
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        vault TEXT NOT NULL,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX sessions_vault ON sessions(vault, updated_at);
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        parts TEXT NOT NULL,
        status TEXT NOT NULL,
        model TEXT,
        error TEXT,
        usage TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX messages_session ON messages(session_id, id);
      CREATE TABLE message_references (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        tool_call_id TEXT,
        document INTEGER,
        subpath TEXT,
        mode TEXT,
        tokens INTEGER,
        summary TEXT NOT NULL,
        UNIQUE (message_id, path, kind)
      );
      CREATE TABLE session_documents (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        path TEXT NOT NULL,
        title TEXT NOT NULL,
        PRIMARY KEY (session_id, number),
        UNIQUE (session_id, path)
      );
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `),
  // LLM note summaries, keyed by what they were made from: a note's content hash (not its path, so a
  // renamed note keeps its summary), the model and the prompt version.
  (db) =>
    db.exec(`
      CREATE TABLE summaries (
        hash TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt_version INTEGER NOT NULL,
        summary TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (hash, model, prompt_version)
      );
    `),
  // A message's parts become rows, so a streaming answer saves only the parts that changed (its last
  // ones) instead of rewriting them all. A streaming answer records the process writing it and a lease
  // that process renews: another process marks it interrupted only once that owner is gone.
  (db) =>
    db.exec(`
      CREATE TABLE message_parts (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        part TEXT NOT NULL,
        PRIMARY KEY (message_id, position)
      ) WITHOUT ROWID;
      INSERT INTO message_parts (message_id, position, part)
        SELECT m.id, p.key, p.value FROM messages m, json_each(m.parts) p;
      ALTER TABLE messages DROP COLUMN parts;
      ALTER TABLE messages ADD COLUMN owner_pid INTEGER;
      ALTER TABLE messages ADD COLUMN owner_host TEXT;
      ALTER TABLE messages ADD COLUMN owner_run TEXT;
      ALTER TABLE messages ADD COLUMN lease_until INTEGER;
      CREATE INDEX messages_streaming ON messages(id) WHERE status = 'streaming';
    `),
  // Context management: how each session fits its requests to the window, what every request of an
  // answer held, and the summaries that stand for older messages in the prompt (the messages stay).
  (db) =>
    db.exec(`
      ALTER TABLE sessions ADD COLUMN strategy TEXT NOT NULL DEFAULT 'hybrid';
      CREATE TABLE request_contexts (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        context TEXT NOT NULL,
        PRIMARY KEY (message_id, position)
      ) WITHOUT ROWID;
      CREATE TABLE compactions (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        covered_ids TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        replaced_tokens INTEGER NOT NULL,
        focus TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX compactions_session ON compactions(session_id, id);
    `),
  // Context items: what the user added to a chat (manual rules and tools, pinned notes), the files
  // attached to its messages (their text, kept with the message), and a chat's own agent prompt.
  (db) =>
    db.exec(`
      CREATE TABLE session_items (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        title TEXT NOT NULL,
        previous_key TEXT,
        added_at TEXT NOT NULL,
        PRIMARY KEY (session_id, kind, key)
      ) WITHOUT ROWID;
      CREATE INDEX session_items_key ON session_items(kind, key);
      CREATE TABLE message_attachments (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        language TEXT,
        pages INTEGER,
        bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        text TEXT NOT NULL
      );
      CREATE INDEX message_attachments_message ON message_attachments(message_id);
      ALTER TABLE sessions ADD COLUMN agent_prompt TEXT;
      ALTER TABLE sessions ADD COLUMN agent_prompt_placement TEXT;
    `),
  // The alias a message named a linked note by.
  (db) => db.exec('ALTER TABLE message_references ADD COLUMN via_alias TEXT'),
  // What Kasten wrote for a chat (an approved write call, or the chat exported), with the file's bytes
  // before (NULL: there was no file) and the hash of what was written, so that it can be undone while
  // the file still holds exactly that. A tool call's record names its message and call.
  (db) =>
    db.exec(`
      CREATE TABLE write_records (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        call_id TEXT,
        vault TEXT NOT NULL,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        previous BLOB,
        written_hash TEXT NOT NULL,
        written_at TEXT NOT NULL,
        undone_at TEXT
      );
      CREATE INDEX write_records_session ON write_records(session_id, id);
      CREATE INDEX write_records_path ON write_records(vault, path, id);
    `),
  // Each chat's choice about writes: ask before each one (the default), or write at once ('allow').
  (db) => db.exec("ALTER TABLE sessions ADD COLUMN writes TEXT NOT NULL DEFAULT 'ask'"),
  // Images given to models (attached, or embedded in a note a model read), by the SHA-256 of the bytes
  // kept: downscaled, re-encoded and stripped of metadata; a message's text names them by hash.
  (db) =>
    db.exec(`
      CREATE TABLE images (
        hash TEXT PRIMARY KEY,
        media_type TEXT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        data BLOB NOT NULL
      );
    `),
  // A web page given with a message: its address, and its document number for citations.
  (db) =>
    db.exec(`
      ALTER TABLE message_attachments ADD COLUMN url TEXT;
      ALTER TABLE message_attachments ADD COLUMN document INTEGER;
    `),
];

export function openAppDatabase(dataDir: string, onNotice?: (message: string) => void): SqliteDatabase {
  return openDatabase({ file: join(dataDir, 'kasten.sqlite'), migrations: appMigrations, onNotice });
}
