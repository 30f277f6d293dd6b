import type { NoteInfo } from '../../shared/index-domain';
import type { SqliteDatabase } from '../storage/database';
import { leadColumn, withLead } from '../storage/index-database';

/** A note as the summary cache sees it: `hash` is the content hash of the file as last indexed. */
export interface NoteHash {
  path: string;
  title: string;
  hash: string;
  lead: string;
  /** 0 for a note with no text: empty, only frontmatter, binary or unreadable. */
  words: number;
}

/** What the index knows about single notes: title, lead paragraph, tags, and notes sharing tags. */
export class NoteCatalog {
  constructor(private readonly db: SqliteDatabase) {}

  /** Whether the index holds any note (an empty one is filled by a first, full pass). */
  hasNotes(): boolean {
    return this.db.prepare('SELECT 1 FROM notes LIMIT 1').get() !== undefined;
  }

  /** The note at `path`, or null when the index has no such note. */
  note(path: string): NoteInfo | null {
    const row = this.db
      .prepare<[string], { id: number; path: string; title: string; lead: string; wordCount: number }>(
        `SELECT n.id, n.path, n.title, ${leadColumn}, n.word_count AS wordCount
         FROM notes n ${withLead} WHERE n.path = ?`,
      )
      .get(path);
    if (!row) return null;
    const tags = this.db
      .prepare<[number], { tag: string }>('SELECT tag FROM tags WHERE note_id = ? ORDER BY rowid')
      .all(row.id)
      .map(({ tag }) => tag);
    return { path: row.path, title: row.title, lead: row.lead, wordCount: row.wordCount, tags };
  }

  /** The text the search index holds for the note at `path`: its title, headings and body. */
  searchColumns(path: string): { title: string; headings: string; body: string } | null {
    const row = this.db
      .prepare<[string], { title: string | null; headings: string | null; body: string | null }>(
        'SELECT title, headings, body FROM notes_fts WHERE rowid = (SELECT id FROM notes WHERE path = ?)',
      )
      .get(path);
    return row ? { title: row.title ?? '', headings: row.headings ?? '', body: row.body ?? '' } : null;
  }

  /** Path, title, content hash and lead of every note, or of the notes at `paths` that the index knows. */
  hashes(paths?: readonly string[]): NoteHash[] {
    const select = `SELECT n.path, n.title, n.hash, ${leadColumn}, n.word_count AS words FROM notes n ${withLead}`;
    if (!paths) return this.db.prepare<[], NoteHash>(`${select} ORDER BY n.path`).all();
    // One JSON parameter rather than a placeholder per path: a list may exceed SQLite's variable limit.
    return this.db
      .prepare<[string], NoteHash>(
        `${select} WHERE n.path IN (SELECT value FROM json_each(?)) ORDER BY n.path`,
      )
      .all(JSON.stringify(paths));
  }

  /** Path, title, hash and lead of the notes in `folder` and its subfolders (a range of the path index). */
  hashesUnder(folder: string): NoteHash[] {
    const prefix = `${folder.replace(/\/+$/, '')}/`;
    // Every path starting with the prefix sorts between it and the prefix with its last character raised.
    const end = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
    return this.db
      .prepare<[string, string], NoteHash>(
        `SELECT n.path, n.title, n.hash, ${leadColumn}, n.word_count AS words FROM notes n ${withLead}
         WHERE n.path >= ? AND n.path < ? ORDER BY n.path`,
      )
      .all(prefix, end);
  }

  /** Notes sharing at least one tag with `path`, most shared tags first. */
  sharingTags(path: string, limit: number): { path: string; title: string; tags: string[] }[] {
    return this.db
      .prepare<[string, number], { path: string; title: string; tags: string }>(
        `SELECT other.path, other.title, json_group_array(DISTINCT theirs.tag) AS tags
         FROM notes mine_note
         JOIN tags mine ON mine.note_id = mine_note.id
         JOIN tags theirs ON theirs.tag_key = mine.tag_key AND theirs.note_id != mine_note.id
         JOIN notes other ON other.id = theirs.note_id
         WHERE mine_note.path = ?
         GROUP BY other.id ORDER BY count(DISTINCT theirs.tag_key) DESC, other.path LIMIT ?`,
      )
      .all(path, limit)
      .map((row) => ({ ...row, tags: JSON.parse(row.tags) as string[] }));
  }

  /** Titles and aliases of every note, for `[[` completion. */
  titles(): { path: string; title: string; aliases: string[] }[] {
    return this.db
      .prepare<[], { path: string; title: string; aliases: string }>(
        `SELECT n.path, n.title, json_group_array(a.alias) FILTER (WHERE a.alias IS NOT NULL) AS aliases
         FROM notes n LEFT JOIN aliases a ON a.note_id = n.id GROUP BY n.id ORDER BY n.title, n.path`,
      )
      .all()
      .map((row) => ({ ...row, aliases: JSON.parse(row.aliases) as string[] }));
  }
}
