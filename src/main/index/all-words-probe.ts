import type { SqliteDatabase, SqliteStatement } from '../storage/database';
import { scratchTables } from './scratch-tables';
import { quickWordsExpression, type QueryWord } from './search-query';
import { snippetRowsSql, type SnippetRow } from './snippet-rows';

/** At most this many notes holding a query's quick words are matched against all of them. */
const fewCandidates = 50;

/**
 * Which notes hold every word of a query, found without matching the words FTS5 is slow to match (see
 * quickWordsExpression) over the whole index: the notes holding the others, when they are few, are copied
 * into a scratch table with the index's tokenizer and matched there against the whole expression, and
 * their snippets marked there too (the same marks: the same text, tokens and expression). On a 10k-note
 * vault of prose, "what is a good habit for reading papers?" matched every word in 28 ms ("a"* and
 * "is"* alone took 26); five notes hold "good", "habit", "reading" and "papers", and none holds all.
 */
export class AllWordsProbe {
  private readonly candidates = new Map<string, SqliteStatement<(string | number)[], { id: number }>>();
  private scratch: {
    fill: SqliteStatement<[string]>;
    snippets: SqliteStatement<[string, string], SnippetRow>;
    clear: SqliteStatement<[]>;
  } | null = null;

  constructor(private readonly db: SqliteDatabase) {}

  /**
   * The notes holding every word, by id, with their snippet rows for `expression` (the all-words one);
   * null when only matching the whole expression over the index tells. `candidatesSql` selects the ids
   * of notes matching an expression (with a filter's `parameters`, then a limit).
   */
  holdingAll(
    words: readonly QueryWord[],
    expression: string,
    candidatesSql: string,
    parameters: readonly (string | number)[],
  ): Map<number, SnippetRow> | null {
    const quick = quickWordsExpression(words);
    if (quick === null) return null;
    let candidates = this.candidates.get(candidatesSql);
    if (!candidates) {
      candidates = this.db.prepare(candidatesSql);
      this.candidates.set(candidatesSql, candidates);
    }
    const ids = candidates.all(quick, ...parameters, fewCandidates + 1).map(({ id }) => id);
    if (ids.length === 0) return new Map();
    const scratch = ids.length <= fewCandidates ? this.prepared() : null;
    if (!scratch) return null;
    const all = JSON.stringify(ids);
    scratch.fill.run(all);
    try {
      return new Map(scratch.snippets.all(expression, all).map((row) => [row.id, row]));
    } finally {
      scratch.clear.run();
    }
  }

  private prepared() {
    this.scratch ??= scratchTables(
      this.db,
      // Its text is the index's (a view of it: highlight() reads it there); only the terms are its own,
      // and 'delete-all' drops them without cutting the text again (half the time of a DELETE).
      `CREATE TEMP VIEW IF NOT EXISTS search_scratch_text AS
         SELECT rowid AS id, title, aliases, headings, body FROM main.notes_fts;
       CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch USING fts5(
         title, aliases, headings, body, content = 'search_scratch_text', content_rowid = 'id',
         tokenize = TOKENIZER
       );`,
      () => ({
        fill: this.db.prepare<[string]>(
          `INSERT INTO temp.search_scratch (rowid, title, aliases, headings, body)
           SELECT rowid, title, aliases, headings, body FROM notes_fts
           WHERE rowid IN (SELECT value FROM json_each(?))`,
        ),
        snippets: this.db.prepare<[string, string], SnippetRow>(snippetRowsSql('search_scratch')),
        clear: this.db.prepare<[]>("INSERT INTO temp.search_scratch (search_scratch) VALUES ('delete-all')"),
      }),
    );
    return this.scratch;
  }
}
