import type { RecentVault } from '../../shared/domain';
import type { SqliteDatabase } from '../storage/database';

const keep = 20;

/** Vaults the user opened, most recent first. */
export class RecentVaults {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(): RecentVault[] {
    return this.db
      .prepare(
        'SELECT path, name, opened_at AS openedAt FROM recent_vaults ORDER BY opened_at DESC, rowid DESC',
      )
      .all() as RecentVault[];
  }

  remember(path: string, name: string): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO recent_vaults (path, name, opened_at) VALUES (?, ?, ?)
           ON CONFLICT(path) DO UPDATE SET name = excluded.name, opened_at = excluded.opened_at`,
        )
        .run(path, name, this.now().toISOString());
      this.db
        .prepare(
          `DELETE FROM recent_vaults WHERE path NOT IN
             (SELECT path FROM recent_vaults ORDER BY opened_at DESC, rowid DESC LIMIT ?)`,
        )
        .run(keep);
    })();
  }
}
