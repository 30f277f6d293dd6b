import type { SqliteDatabase } from '../storage/database';
import type { NoteChunk } from './chunk-note';
import { toBlob } from './vectors';

/** A note whose passages are missing or were cut from another version of it. */
export interface StaleNote {
  path: string;
  title: string;
  hash: string;
  words: number;
}

/** A passage waiting for its vector: the text to send, and the hash every passage with that text shares. */
export interface PendingInput {
  hash: string;
  input: string;
}

/** A stored passage as search shows it. */
export interface StoredChunk {
  id: number;
  path: string;
  title: string;
  headingPath: string[];
  text: string;
}

/** Which model on which server made the stored vectors, and their length. */
export interface VectorOrigin {
  identity: string;
  dimensions: number | null;
}

/**
 * The SQL of the chunk tables in a vault's index (see index-database.ts): passages per note, their
 * vectors, and which model made them.
 */
export class ChunkStore {
  private readonly statements;

  constructor(readonly db: SqliteDatabase) {
    this.statements = {
      vectorFor: db.prepare<[string], { vector: Buffer }>(
        'SELECT vector FROM chunks WHERE hash = ? AND vector IS NOT NULL LIMIT 1',
      ),
      deleteChunks: db.prepare('DELETE FROM chunks WHERE path = ?'),
      insertChunk: db.prepare(
        'INSERT INTO chunks (path, ordinal, heading_path, text, hash, vector) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      markChunked: db.prepare(
        `INSERT INTO chunked_notes (path, hash) VALUES (?, ?)
         ON CONFLICT(path) DO UPDATE SET hash = excluded.hash`,
      ),
      inputFor: db.prepare<[string], { title: string; headingPath: string; text: string }>(
        `SELECT n.title, c.heading_path AS headingPath, c.text FROM chunks c JOIN notes n ON n.path = c.path
         WHERE c.hash = ? LIMIT 1`,
      ),
      storeVector: db.prepare('UPDATE chunks SET vector = ? WHERE hash = ? AND vector IS NULL'),
      meta: db.prepare<[string], { value: string }>('SELECT value FROM embedding_meta WHERE key = ?'),
      // Read for every semantic search: the passages to score exactly (see VectorMatrix).
      vectorsByIds: db
        .prepare<[string], [number, Buffer]>(
          'SELECT id, vector FROM chunks WHERE id IN (SELECT value FROM json_each(?)) AND vector IS NOT NULL',
        )
        .raw(),
      putMeta: db.prepare(
        `INSERT INTO embedding_meta (key, value) VALUES (?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
    };
  }

  /** Notes never cut into passages, or changed since; the notes with the fewest words first. */
  staleNotes(): StaleNote[] {
    return this.db
      .prepare<[], StaleNote>(
        `SELECT n.path, n.title, n.hash, n.word_count AS words FROM notes n
         LEFT JOIN chunked_notes c ON c.path = n.path
         WHERE c.hash IS NULL OR c.hash != n.hash ORDER BY n.word_count, n.path`,
      )
      .all();
  }

  /**
   * Replaces the passages of the note at `path` (cut from its version `hash`). A passage whose text
   * already has a vector anywhere (an unchanged section, a renamed note) takes it; the others wait.
   * Returns how many took a known vector.
   */
  replaceChunks(path: string, hash: string, chunks: readonly NoteChunk[]): number {
    const s = this.statements;
    let reused = 0;
    this.db.transaction(() => {
      const known = chunks.map((chunk) => s.vectorFor.get(chunk.hash)?.vector ?? null);
      s.deleteChunks.run(path);
      chunks.forEach((chunk, ordinal) => {
        const vector = known[ordinal] ?? null;
        if (vector) reused++;
        s.insertChunk.run(path, ordinal, JSON.stringify(chunk.headingPath), chunk.text, chunk.hash, vector);
      });
      s.markChunked.run(path, hash);
    })();
    return reused;
  }

  /** Forgets the passages of notes that are no longer in the index (deleted, renamed). */
  dropOrphans(): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM chunks WHERE path NOT IN (SELECT path FROM notes)').run();
      this.db.prepare('DELETE FROM chunked_notes WHERE path NOT IN (SELECT path FROM notes)').run();
    })();
  }

  /** One hash per passage text still waiting for a vector. */
  pendingHashes(): string[] {
    return this.db
      .prepare<[], string>('SELECT hash FROM chunks WHERE vector IS NULL GROUP BY hash ORDER BY min(id)')
      .pluck()
      .all();
  }

  /** What to send for the passages with `hash`, or null when none is left (its note changed meanwhile). */
  inputFor(hash: string, compose: (title: string, headingPath: string[], text: string) => string) {
    const row = this.statements.inputFor.get(hash);
    return row ? compose(row.title, JSON.parse(row.headingPath) as string[], row.text) : null;
  }

  /** Stores a vector (of unit length) for every waiting passage with that text. */
  storeVectors(entries: readonly { hash: string; vector: Float32Array }[]): void {
    this.db.transaction(() => {
      for (const { hash, vector } of entries) this.statements.storeVector.run(toBlob(vector), hash);
    })();
  }

  /** Every vector is dropped: they came from another model, or have another length than the model's now. */
  dropVectors(): void {
    this.db.prepare('UPDATE chunks SET vector = NULL WHERE vector IS NOT NULL').run();
  }

  counts(): { embedded: number; pending: number } {
    return this.db
      .prepare<[], { embedded: number; pending: number }>(
        `SELECT count(vector) AS embedded, count(*) - count(vector) AS pending FROM chunks
         WHERE path IN (SELECT path FROM notes)`,
      )
      .get()!;
  }

  /**
   * Makes every note be cut again when the way notes are cut (`chunking`) is not the one they were cut
   * with; passages whose text comes out the same keep their vectors.
   */
  useChunking(chunking: string): void {
    if (this.statements.meta.get('chunking')?.value === chunking) return;
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM chunked_notes').run();
      this.statements.putMeta.run('chunking', chunking);
    })();
  }

  origin(): VectorOrigin | null {
    const identity = this.statements.meta.get('identity')?.value;
    if (identity === undefined) return null;
    const dimensions = this.statements.meta.get('dimensions')?.value;
    return { identity, dimensions: dimensions === undefined ? null : Number(dimensions) };
  }

  setOrigin(origin: VectorOrigin): void {
    this.db.transaction(() => {
      this.statements.putMeta.run('identity', origin.identity);
      if (origin.dimensions === null)
        this.db.prepare("DELETE FROM embedding_meta WHERE key = 'dimensions'").run();
      else this.statements.putMeta.run('dimensions', String(origin.dimensions));
    })();
  }

  /** How many vectors are stored, notes in the index or not. */
  vectorCount(): number {
    return this.db.prepare<[], number>('SELECT count(vector) FROM chunks').pluck().get()!;
  }

  /** Every stored vector with its passage id and note path, in id order. */
  vectors(): IterableIterator<[number, string, Buffer]> {
    return this.db
      .prepare<[], [number, string, Buffer]>('SELECT id, path, vector FROM chunks WHERE vector IS NOT NULL')
      .raw()
      .iterate() as IterableIterator<[number, string, Buffer]>;
  }

  /** The passages with these ids whose notes are in the index, by id. */
  chunks(ids: readonly number[]): Map<number, StoredChunk> {
    const rows = this.db
      .prepare<[string], { id: number; path: string; title: string; headingPath: string; text: string }>(
        `SELECT c.id, c.path, n.title, c.heading_path AS headingPath, c.text FROM chunks c
         JOIN notes n ON n.path = c.path WHERE c.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids));
    return new Map(
      rows.map((row) => [row.id, { ...row, headingPath: JSON.parse(row.headingPath) as string[] }]),
    );
  }

  /** The vectors of the passages with these ids, by id (passages deleted or without one are missing). */
  vectorsByIds(ids: readonly number[]): Map<number, Buffer> {
    return new Map(this.statements.vectorsByIds.all(JSON.stringify(ids)));
  }

  /** The vectors of the note at `path`, in the order of its passages. */
  noteVectors(path: string): Buffer[] {
    return this.db
      .prepare<[string], Buffer>(
        'SELECT vector FROM chunks WHERE path = ? AND vector IS NOT NULL ORDER BY ordinal',
      )
      .pluck()
      .all(path);
  }

  /** Paths of the notes in `folder` and with `tag` (or a tag nested under it), for filtered searches. */
  notesMatching(folder: string | undefined, tag: string | undefined): Set<string> {
    const filters: string[] = [];
    const parameters: string[] = [];
    if (folder) {
      const prefix = folder.replace(/\/+$/, '');
      filters.push("substr(n.path, 1, length(?) + 1) = ? || '/'");
      parameters.push(prefix, prefix);
    }
    if (tag) {
      const key = tag.replace(/^#/, '').toLowerCase();
      filters.push(
        "EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND (t.tag_key = ? OR substr(t.tag_key, 1, length(?) + 1) = ? || '/'))",
      );
      parameters.push(key, key, key);
    }
    const where = filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
    return new Set(
      this.db
        .prepare<string[], string>(`SELECT n.path FROM notes n ${where}`)
        .pluck()
        .all(...parameters),
    );
  }
}
