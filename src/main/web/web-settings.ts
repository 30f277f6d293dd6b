import type { WebSettings } from '../../shared/web-contract';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

const key = 'web';

/** Whether pages may be fetched from loopback and private addresses (off unless the user turns it on). */
export class WebSettingsStore {
  private readonly table: SettingsTable;

  /** `override`: this run's choice (`kasten ask --allow-private-urls`), not stored. */
  constructor(
    db: SqliteDatabase,
    private readonly override?: boolean,
  ) {
    this.table = new SettingsTable(db);
  }

  get(): WebSettings {
    const stored = this.table.get(key);
    const saved =
      stored === null ? false : (JSON.parse(stored) as WebSettings).allowPrivateAddresses === true;
    return { allowPrivateAddresses: this.override ?? saved };
  }

  set(settings: WebSettings): WebSettings {
    this.table.put(key, JSON.stringify(settings));
    return this.get();
  }
}
