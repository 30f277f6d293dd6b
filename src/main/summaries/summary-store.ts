import type { SqliteDatabase } from '../storage/database';

/**
 * LLM summaries in the app database, keyed by what they were made from (content hash, model, prompt
 * version), so an unchanged note is never summarized twice and a changed one simply misses.
 */
export class SummaryStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The cached summary, or null when none was made for exactly this content, model and prompt version. */
  get(hash: string, model: string, promptVersion: number): string | null {
    const row = this.db
      .prepare<[string, string, number], { summary: string }>(
        'SELECT summary FROM summaries WHERE hash = ? AND model = ? AND prompt_version = ?',
      )
      .get(hash, model, promptVersion);
    return row?.summary ?? null;
  }

  /** Stores (or replaces) the summary of this content, model and prompt version. */
  put(hash: string, model: string, promptVersion: number, summary: string): void {
    this.db
      .prepare(
        `INSERT INTO summaries (hash, model, prompt_version, summary, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (hash, model, prompt_version)
         DO UPDATE SET summary = excluded.summary, created_at = excluded.created_at`,
      )
      .run(hash, model, promptVersion, summary, this.now().toISOString());
  }
}
