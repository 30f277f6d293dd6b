import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  openDatabase,
  openExisting,
  removeDatabaseFiles,
  type Migration,
  type SqliteDatabase,
} from './database';

/** The links table and its indexes; schema 1 keyed links by text, schema 2 by a hash (see keyHash). */
function linksTable(keyType: 'TEXT' | 'INTEGER'): string {
  return `
      CREATE TABLE links (
        id INTEGER PRIMARY KEY,
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        embed INTEGER NOT NULL,
        line INTEGER NOT NULL,
        col INTEGER NOT NULL,
        raw TEXT NOT NULL,
        target TEXT NOT NULL,
        subpath TEXT,
        display TEXT,
        link_key ${keyType} NOT NULL,
        resolved TEXT,
        status TEXT NOT NULL,
        candidates TEXT,
        via_alias INTEGER NOT NULL DEFAULT 0,
        subpath_line INTEGER,
        reason TEXT,
        context TEXT NOT NULL
      );
      CREATE INDEX links_note ON links(note_id);
      CREATE INDEX links_key ON links(link_key);
      CREATE INDEX links_resolved ON links(resolved);`;
}

/**
 * Schema of a vault's index. Everything here is derived from the vault's files, so a schema change
 * simply rebuilds the index (see `derived` in openDatabase); the list still only grows.
 */
const migrations: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        lead TEXT NOT NULL,
        word_count INTEGER NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE TABLE attachments (
        path TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL
      );
      CREATE TABLE headings (
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        level INTEGER NOT NULL,
        text TEXT NOT NULL,
        line INTEGER NOT NULL
      );
      CREATE INDEX headings_note ON headings(note_id);
      CREATE TABLE blocks (
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        block_id TEXT NOT NULL,
        line INTEGER NOT NULL
      );
      CREATE INDEX blocks_note ON blocks(note_id);
      CREATE TABLE tags (
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        tag_key TEXT NOT NULL
      );
      CREATE INDEX tags_note ON tags(note_id);
      CREATE INDEX tags_key ON tags(tag_key);
      CREATE TABLE aliases (
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        alias TEXT NOT NULL
      );
      CREATE INDEX aliases_note ON aliases(note_id);
      ${linksTable('TEXT')}
      CREATE TABLE warnings (
        path TEXT NOT NULL,
        message TEXT NOT NULL,
        -- 'note': found while parsing the note; 'file': found while scanning (skipped, unreadable)
        kind TEXT NOT NULL
      );
      CREATE INDEX warnings_path ON warnings(path);
      CREATE VIRTUAL TABLE notes_fts USING fts5(
        title, aliases, headings, body,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
    `),
  // Link keys as 32-bit hashes rather than text: the key index of a 10k-note vault's 127k links built
  // in a third of the time. A collision only re-resolves a link that did not need it.
  (db) =>
    db.exec(`
      DROP TABLE links;
      ${linksTable('INTEGER')}
    `),
  // Passages of notes and their vectors (semantic search). Keyed by the note's path, not its id: a
  // note's row is replaced, with a new id, every time it changes, and its unchanged passages keep their
  // vectors. `vector` is NULL until embedded.
  (db) =>
    db.exec(`
      CREATE TABLE chunks (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        heading_path TEXT NOT NULL,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        vector BLOB
      );
      CREATE INDEX chunks_path ON chunks(path, ordinal);
      CREATE INDEX chunks_hash ON chunks(hash);
      CREATE INDEX chunks_pending ON chunks(id) WHERE vector IS NULL;
      -- The content hash each note had when it was last cut into chunks.
      CREATE TABLE chunked_notes (
        path TEXT PRIMARY KEY,
        hash TEXT NOT NULL
      ) WITHOUT ROWID;
      -- Which model on which server made the vectors, and their length.
      CREATE TABLE embedding_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `),
  // Marks are letters' parts, not separators (`categories`): Thai `ลิงก์` was indexed as `ล` and `งก`,
  // Hindi `हिंदी` as `ह` and `द`. `remove_diacritics 2` still folds only Latin diacritics (U+0300–U+036F
  // and precomposed letters), never vowel signs. The words of Chinese, Japanese, Thai, Lao, Khmer and
  // Burmese are separated before they are written (see word-segments).
  (db) =>
    db.exec(`
      DROP TABLE notes_fts;
      CREATE VIRTUAL TABLE notes_fts USING fts5(
        title, aliases, headings, body,
        tokenize = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
      );
    `),
  // Nothing changes in the tables, but an alias no longer resolves a link in a note (as in Obsidian): an
  // index that resolved links through aliases is rebuilt.
  () => undefined,
  // Words as written, not porter stems: a whole word is told from a prefix and from a stem, and English
  // endings are no longer cut from words of other languages. Stems, each in the note's own language,
  // are columns of their own, the title's apart (see index/search-stems).
  (db) =>
    db.exec(`
      DROP TABLE notes_fts;
      CREATE VIRTUAL TABLE notes_fts USING fts5(
        title, aliases, headings, body, title_stems, stems,
        tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
      );
      -- The names a note is found first by: its title, file name and aliases, as search folds and cuts them.
      CREATE TABLE note_names (
        note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
        name TEXT NOT NULL
      );
      CREATE INDEX note_names_note ON note_names(note_id);
      CREATE INDEX note_names_name ON note_names(name);
    `),
  // Lead paragraphs in a table of their own: they were 61% of the notes table (2.1 of 3.4 MB on the
  // synthetic 10k vault), which every start reads whole for the files' sizes and times, and the note
  // list for titles. Reading the states of 10k notes took 40–50 ms, `SELECT path` alone 15–25.
  (db) =>
    db.exec(`
      ALTER TABLE notes DROP COLUMN lead;
      CREATE TABLE note_leads (
        note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
        lead TEXT NOT NULL
      );
    `),
];

/** A note's lead paragraph (see note_leads), in a query of the notes table as `n`: a column, and its join. */
export const leadColumn = "coalesce(l.lead, '') AS lead";
export const withLead = 'LEFT JOIN note_leads l ON l.note_id = n.id';

/**
 * The indexes that serve lookups (backlinks, a note's links, headings, tags) rather than uniqueness. A
 * cold index drops them and builds them once at the end: maintaining them row by row made the link writes
 * of a 10k-note vault three times slower (2.8 s against 0.8 s plus 0.3 s to build them afterwards).
 */
const lookupIndexes: readonly string[] = [
  'links_note ON links(note_id)',
  'links_key ON links(link_key)',
  'links_resolved ON links(resolved)',
  'headings_note ON headings(note_id)',
  'blocks_note ON blocks(note_id)',
  'tags_note ON tags(note_id)',
  'tags_key ON tags(tag_key)',
  'aliases_note ON aliases(note_id)',
  'note_names_note ON note_names(note_id)',
  'note_names_name ON note_names(name)',
  // The few links that are not simply resolved: the health view's lists and the status bar's counts read
  // these instead of scanning every link. With `via_alias` the counts read the index alone: on a 10k-note
  // vault's 6k such links, 2 ms against 26–43 ms looking each row up in the table (`kasten search` counts
  // them once its pass is over).
  "links_issues ON links(status, via_alias) WHERE status != 'resolved'",
];

/** Lookup indexes of earlier versions that one of the above replaces. */
const retiredIndexes: readonly string[] = ['links_issue'];

/** Drops the lookup indexes before a cold index fills the tables. */
export function dropLookupIndexes(db: SqliteDatabase): void {
  for (const index of lookupIndexes) db.exec(`DROP INDEX IF EXISTS ${index.split(' ')[0]}`);
}

/** Builds whichever lookup indexes are missing (after a cold index, or one that was interrupted). */
export function createLookupIndexes(db: SqliteDatabase): void {
  for (const index of retiredIndexes) db.exec(`DROP INDEX IF EXISTS ${index}`);
  for (const index of lookupIndexes) db.exec(`CREATE INDEX IF NOT EXISTS ${index}`);
}

/** The index file for a vault: one per vault folder, named after it and a hash of its absolute path. */
export function indexFileFor(dataDir: string, vaultRoot: string): string {
  const hash = createHash('sha256').update(vaultRoot).digest('hex').slice(0, 16);
  const name =
    basename(vaultRoot)
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .slice(0, 40) || 'vault';
  return join(dataDir, 'indexes', `${name}-${hash}.sqlite`);
}

/**
 * Opens (creating, migrating or rebuilding if needed) the index at `file`. Only the process holding the
 * index's writer lock (see index/writer-lock) may: it rebuilds what it finds half-built, which is only
 * safe when no other process can be building it.
 */
export function openIndexDatabase(file: string, onNotice?: (message: string) => void): SqliteDatabase {
  let db = openDatabase({ file, migrations, onNotice, derived: true });
  if (coldIndexInterrupted(db)) {
    // Links written early in a cold index are settled only at its end (see IndexUpdate.finish), so what an
    // interrupted one left cannot be completed note by note: start again.
    db.close();
    removeDatabaseFiles(file);
    onNotice?.(`Indexing of this vault was interrupted before it finished; ${file} is being rebuilt.`);
    db = openDatabase({ file, migrations, onNotice, derived: true });
  }
  // The index can always be rebuilt from the files (and is, when found corrupt): trade durability on
  // power loss for write speed. No fsync at all, and checkpoints only every 10,000 pages (40 MB of WAL):
  // on a cold index of 10k notes, checkpoints at the default 1,000 pages cost 15% of the time.
  db.pragma('synchronous = OFF');
  db.pragma('wal_autocheckpoint = 10000');
  tuneForQueries(db);
  createLookupIndexes(db);
  return db;
}

/** What openIndexForReading found: a database to read, or none and why (see there). */
export type IndexToRead = { db: SqliteDatabase } | { db: null; schema: number | null };

/** Errors of a file the writer is creating or rebuilding at this moment: worth trying again soon. */
const notReadyYet = new Set(['SQLITE_BUSY', 'SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN']);

/**
 * Opens the index at `file` for a process that reads what another one writes: never creates, migrates or
 * rebuilds it, and leaves its lookup indexes alone, all of which are the writer's to do. Without a
 * database, `schema` is null when there is no file, 0 while the writer creates or rebuilds it, and the
 * file's schema when that is another version's (the writer is another Kasten).
 */
export function openIndexForReading(file: string): IndexToRead {
  if (!existsSync(file)) return { db: null, schema: null };
  let db: SqliteDatabase | null = null;
  try {
    db = openExisting(file);
    const schema = db.pragma('user_version', { simple: true }) as number;
    if (schema !== migrations.length) {
      db.close();
      return { db: null, schema };
    }
  } catch (error) {
    db?.close();
    if (notReadyYet.has((error as { code?: string }).code ?? '')) return { db: null, schema: 0 };
    throw error;
  }
  tuneForQueries(db);
  return { db };
}

/**
 * Whether the lookup indexes a cold index builds last are there: without them the index is still being
 * filled (or its filling was interrupted).
 */
export function lookupIndexesBuilt(db: SqliteDatabase): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'links_note'").get() !== undefined
  );
}

function tuneForQueries(db: SqliteDatabase): void {
  // A 10k-note vault's link and FTS b-trees outgrow the default 2 MB page cache, and every commit then
  // re-reads evicted pages from the WAL; 16 MB keeps the hot ones (64 MB differed by less than the
  // run-to-run noise and cost 40 MB of memory).
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
}

/**
 * A cold index drops the lookup indexes and builds them, first `links_note`, once its links are settled,
 * cancelled or not; notes without that index mean the process died part-way through one. (Other lookup
 * indexes may be missing because they are new in this version: openIndexDatabase builds them.)
 */
function coldIndexInterrupted(db: SqliteDatabase): boolean {
  return !lookupIndexesBuilt(db) && db.prepare('SELECT 1 FROM notes LIMIT 1').get() !== undefined;
}
