import { join } from 'node:path';
import { openDatabase, type Migration, type SqliteDatabase } from './database';

/** Schema of the app-wide database (`kasten.sqlite` in the data directory). Append only. */
const migrations: readonly Migration[] = [
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
];

export function openAppDatabase(dataDir: string, onNotice?: (message: string) => void): SqliteDatabase {
  return openDatabase({ file: join(dataDir, 'kasten.sqlite'), migrations, onNotice });
}
