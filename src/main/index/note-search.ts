import type { SearchHit, SearchRequest, TagCount } from '../../shared/index-domain';
import type { SqliteDatabase, SqliteStatement } from '../storage/database';

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
  /** Ranking statements by their SQL (one per combination of filters); preparing cost 0.1 ms each. */
  private readonly rankings = new Map<
    string,
    SqliteStatement<(string | number)[], { id: number; score: number }>
  >();
  private readonly snippets;
  private readonly notes;

  constructor(private readonly db: SqliteDatabase) {
    this.snippets = db.prepare<[string, string], { id: number; snippet: string }>(
      // `+rowid`: filter the matches rather than look each id up (which re-reads the prefix's terms).
      `SELECT rowid AS id, snippet(notes_fts, -1, '${highlightStart}', '${highlightEnd}', '…', 16) AS snippet
       FROM notes_fts WHERE notes_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    );
    this.notes = db.prepare<[string], { id: number; path: string; title: string }>(
      'SELECT id, path, title FROM notes WHERE id IN (SELECT value FROM json_each(?))',
    );
  }

  /**
   * Ranks first, then makes snippets for the hits only. In one query FTS5 made each snippet after the
   * sort at 0.27 ms a hit; in rowid order, for the chosen rows, at a fifth of that (a query matching all
   * 10k notes: 13 ms in one query, 9 ms in these three).
   */
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
    // Without filters the notes table is read for the hits only, not joined to every match.
    const join = filters.length > 0 ? 'JOIN notes n ON n.id = notes_fts.rowid' : '';
    const sql = `SELECT notes_fts.rowid AS id, -bm25(notes_fts, ${weights}) AS score FROM notes_fts ${join}
         WHERE notes_fts MATCH ? ${filters.map((filter) => `AND ${filter}`).join(' ')}
         ORDER BY score DESC LIMIT ?`;
    let ranking = this.rankings.get(sql);
    if (!ranking) {
      ranking = this.db.prepare(sql);
      this.rankings.set(sql, ranking);
    }
    const ranked = ranking.all(...parameters);
    if (ranked.length === 0) return [];
    const ids = JSON.stringify(ranked.map(({ id }) => id));
    const snippets = new Map(this.snippets.all(match, ids).map(({ id, snippet }) => [id, snippet]));
    const notes = new Map(this.notes.all(ids).map((note) => [note.id, note]));
    return ranked.flatMap(({ id, score }) => {
      const note = notes.get(id);
      return note ? [{ path: note.path, title: note.title, score, snippet: snippets.get(id) ?? '' }] : [];
    });
  }

  tags(): TagCount[] {
    return this.db
      .prepare<[], TagCount>(
        'SELECT min(tag) AS tag, count(DISTINCT note_id) AS count FROM tags GROUP BY tag_key ORDER BY tag_key',
      )
      .all();
  }
}
