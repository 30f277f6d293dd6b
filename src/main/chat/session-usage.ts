import type { TokenUsage } from '../../shared/chat-domain';
import type { UsageTotal } from '../../shared/cost/cost-domain';
import { usageTotal } from '../../shared/cost/cost-math';
import type { SqliteDatabase } from '../storage/database';

/** Each chat's tokens and cost: its answers' usage as each was stored with its price, added up. */
export class SessionUsage {
  constructor(private readonly db: SqliteDatabase) {}

  /** The totals of the vault's sessions, by session id (a session without answers has none). */
  totals(vault: string): Map<string, UsageTotal> {
    const rows = this.db
      .prepare<[string], { sessionId: string; usage: string }>(
        `SELECT m.session_id AS sessionId, m.usage FROM messages m JOIN sessions s ON s.id = m.session_id
          WHERE s.vault = ? AND s.deleted_at IS NULL AND m.usage IS NOT NULL`,
      )
      .all(vault);
    const bySession = new Map<string, TokenUsage[]>();
    for (const row of rows) {
      const usages = bySession.get(row.sessionId) ?? [];
      usages.push(JSON.parse(row.usage) as TokenUsage);
      bySession.set(row.sessionId, usages);
    }
    return new Map([...bySession].map(([id, usages]) => [id, usageTotal(usages)]));
  }
}
