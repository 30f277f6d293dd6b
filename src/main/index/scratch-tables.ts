import type { SqliteDatabase } from '../storage/database';

/**
 * Makes tables in the connection's temp schema (nothing is written to the index file; `TOKENIZER` in
 * `sql` stands for the search index's own, so that text is cut and folded as the index does)
 * and returns what `prepare` makes of them; null while the connection is in a transaction, which an
 * index pass could roll back, and the tables' making with it.
 */
export function scratchTables<T>(db: SqliteDatabase, sql: string, prepare: () => T): T | null {
  if (db.inTransaction) return null;
  db.exec(sql.replaceAll('TOKENIZER', searchTokenizer(db)));
  return prepare();
}

/** The tokenize option of the search index's table, as written in its schema (see index-database.ts). */
function searchTokenizer(db: SqliteDatabase): string {
  const schema = db
    .prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'notes_fts'")
    .pluck()
    .get();
  const option = schema?.match(/tokenize\s*=\s*("[^"]*"|'[^']*')/i)?.[1];
  if (!option) throw new Error('The search index has no tokenize option.');
  return option;
}
