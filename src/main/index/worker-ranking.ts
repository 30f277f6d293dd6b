import { openReader, type SqliteDatabase, type SqliteStatement } from '../storage/database';
import type { RankedNote, RankTask } from './ranking-task';

/** A worker keeps its read connection this long after a search, then lets go of the file. */
const idleCloseMs = 5000;

let reader: {
  key: string;
  db: SqliteDatabase;
  statements: Map<string, SqliteStatement<(string | number)[], RankedNote>>;
  timer: NodeJS.Timeout | null;
} | null = null;

/** Runs a search's ranking SQL over its share of the notes, on this worker's read connection. */
export function rankNotes({ file, opening, sql, parameters }: RankTask): RankedNote[] {
  const key = `${opening}:${file}`;
  if (reader?.key !== key) {
    closeReader();
    reader = { key, db: openReader(file), statements: new Map(), timer: null };
  }
  const open = reader;
  if (open.timer) clearTimeout(open.timer);
  // Unref'd: an idle worker must not be kept alive by its connection.
  open.timer = setTimeout(closeReader, idleCloseMs).unref();
  let statement = open.statements.get(sql);
  if (!statement) {
    statement = open.db.prepare<(string | number)[], RankedNote>(sql);
    open.statements.set(sql, statement);
  }
  return statement.all(...parameters);
}

function closeReader(): void {
  if (!reader) return;
  if (reader.timer) clearTimeout(reader.timer);
  reader.db.close();
  reader = null;
}
