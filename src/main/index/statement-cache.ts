import type { SqliteDatabase, SqliteStatement } from '../storage/database';

/** Statements prepared once per SQL text (a search's SQL varies with its filters; preparing costs 0.1 ms). */
export class StatementCache<Row = unknown> {
  private readonly statements = new Map<string, SqliteStatement<(string | number)[], Row>>();

  constructor(private readonly db: SqliteDatabase) {}

  get(sql: string): SqliteStatement<(string | number)[], Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
