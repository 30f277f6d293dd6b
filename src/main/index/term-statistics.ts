import type { SqliteDatabase, SqliteStatement } from '../storage/database';
import { scratchTables } from './scratch-tables';

/** What "more like this" needs to weigh a note's words: their terms in the index and how common they are. */
export interface TermCounts {
  /** How many notes the index holds. */
  readonly notes: number;
  /** The index term of each word (folded), or null for a word the index cuts into several. */
  termsOf(words: readonly string[]): (string | null)[];
  /** How many notes hold each term. */
  notesHolding(terms: readonly string[]): Map<string, number>;
}

/**
 * The terms and document frequencies of the search index, read through fts5vocab tables on this
 * connection (in its temp schema: nothing is added to the index file). A word's term comes from a
 * scratch FTS5 table with the index's tokenizer, so that it is cut and folded exactly as the index does. FTS5 keeps no counts: a term's count walks its doclist (0.03 ms for a rare term, 0.3 ms for one in
 * all of 10k notes), so counts are kept until the index changes.
 */
export class TermStatistics implements TermCounts {
  private statements: {
    addWords: SqliteStatement<[string]>;
    wordTerms: SqliteStatement<[], [number, string]>;
    clearWords: SqliteStatement<[]>;
    notesHolding: SqliteStatement<[string], number>;
  } | null = null;
  private readonly counts = new Map<string, number>();
  private structure: Buffer | null = null;
  private noteCount = 0;

  constructor(private readonly db: SqliteDatabase) {}

  /** These counts, or null while they cannot be had (see scratchTables: an index pass is writing). */
  available(): TermCounts | null {
    return this.prepared() ? this : null;
  }

  get notes(): number {
    this.fresh();
    return this.noteCount;
  }

  termsOf(words: readonly string[]): (string | null)[] {
    const s = this.prepared()!;
    const terms: (string | null | undefined)[] = words.map(() => undefined);
    s.addWords.run(JSON.stringify(words));
    try {
      for (const [index, term] of s.wordTerms.all()) {
        // A second term for the same word: the index cut it in two (`snake_case`).
        terms[index] = terms[index] === undefined ? term : null;
      }
    } finally {
      s.clearWords.run();
    }
    return terms.map((term) => term ?? null);
  }

  notesHolding(terms: readonly string[]): Map<string, number> {
    const s = this.prepared()!;
    this.fresh();
    const holding = new Map<string, number>();
    for (const term of terms) {
      let count = this.counts.get(term);
      if (count === undefined) {
        count = s.notesHolding.get(term) ?? 0;
        this.counts.set(term, count);
      }
      holding.set(term, count);
    }
    return holding;
  }

  /**
   * Forgets the counts once the index changed, here or in another process: FTS5's structure record (row
   * 10 of its data table, part of its file format) changes with every write to the index. total_changes()
   * would also count this class's own scratch rows, and the notes' number and highest id miss an edit of
   * the newest note (written again under the same id).
   */
  private fresh(): void {
    const structure = this.db
      .prepare<[], Buffer>('SELECT block FROM notes_fts_data WHERE id = 10')
      .pluck()
      .get();
    if (structure && this.structure?.equals(structure)) return;
    this.counts.clear();
    this.structure = structure ?? null;
    this.noteCount = this.db.prepare<[], number>('SELECT count(*) FROM notes').pluck().get()!;
  }

  private prepared() {
    this.statements ??= scratchTables(
      this.db,
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.like_this_words USING fts5(word, tokenize = TOKENIZER);
       CREATE VIRTUAL TABLE IF NOT EXISTS temp.like_this_terms USING fts5vocab(temp, like_this_words, instance);
       CREATE VIRTUAL TABLE IF NOT EXISTS temp.notes_vocabulary USING fts5vocab(main, notes_fts, row);`,
      () => ({
        addWords: this.db.prepare<[string]>(
          'INSERT INTO temp.like_this_words (rowid, word) SELECT key, value FROM json_each(?)',
        ),
        wordTerms: this.db.prepare<[], [number, string]>('SELECT doc, term FROM temp.like_this_terms').raw(),
        clearWords: this.db.prepare<[]>('DELETE FROM temp.like_this_words'),
        notesHolding: this.db
          .prepare<[string], number>('SELECT doc FROM temp.notes_vocabulary WHERE term = ?')
          .pluck(),
      }),
    );
    return this.statements;
  }
}
