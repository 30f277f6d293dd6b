import type { SearchHit, SearchRequest, TagCount } from '../../shared/index-domain';
import type { SqliteDatabase } from '../storage/database';

/** Marks around matched terms in snippets; control characters cannot occur in a note's text. */
export const highlightStart = '\u0002';
export const highlightEnd = '\u0003';

// bm25 weights for the FTS columns title, aliases, headings, body.
const weights = '10.0, 8.0, 4.0, 1.0';

/**
 * Turns what the user typed into an FTS5 query: every word must occur, each as a prefix, quoted so that
 * FTS syntax characters (`"`, `*`, `-`, `:`) in the input are searched for rather than interpreted.
 */
export function toMatchExpression(query: string): string | null {
  const words = query.match(/[\p{L}\p{N}_]+/gu);
  if (!words) return null;
  return words.map((word) => `"${word}"*`).join(' AND ');
}

/** Full-text search over the index, with folder and tag filters. */
export class NoteSearch {
  constructor(private readonly db: SqliteDatabase) {}

  search({ query, limit = 20, folder, tag }: SearchRequest): SearchHit[] {
    const match = toMatchExpression(query);
    if (match === null) return [];
    const filters: string[] = [];
    const parameters: (string | number)[] = [match];
    if (folder) {
      filters.push("substr(n.path, 1, length(?) + 1) = ? || '/'");
      const prefix = folder.replace(/\/+$/, '');
      parameters.push(prefix, prefix);
    }
    if (tag) {
      const key = tag.replace(/^#/, '').toLowerCase();
      filters.push(
        "EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND (t.tag_key = ? OR substr(t.tag_key, 1, length(?) + 1) = ? || '/'))",
      );
      parameters.push(key, key, key);
    }
    parameters.push(Math.max(1, Math.min(limit, 200)));
    return this.db
      .prepare<(string | number)[], SearchHit>(
        `SELECT n.path, n.title, -bm25(notes_fts, ${weights}) AS score,
                snippet(notes_fts, -1, '${highlightStart}', '${highlightEnd}', '…', 16) AS snippet
         FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid
         WHERE notes_fts MATCH ? ${filters.map((filter) => `AND ${filter}`).join(' ')}
         ORDER BY bm25(notes_fts, ${weights}) LIMIT ?`,
      )
      .all(...parameters);
  }

  tags(): TagCount[] {
    return this.db
      .prepare<[], TagCount>(
        'SELECT min(tag) AS tag, count(DISTINCT note_id) AS count FROM tags GROUP BY tag_key ORDER BY tag_key',
      )
      .all();
  }
}
