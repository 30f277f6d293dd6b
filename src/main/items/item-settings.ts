import {
  contextItemSettingsSchema,
  defaultContextItemSettings,
  type ContextItemSettings,
} from '../../shared/context-items-domain';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/** Each vault's rules folder, agent prompt and tool modes, kept in the app database by the vault's path. */
export class ItemSettingsStore {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    /** The open vault's path; null when none is open. */
    private readonly vault: () => string | null,
  ) {
    this.table = new SettingsTable(db);
  }

  get(): ContextItemSettings {
    const vault = this.vault();
    const stored = vault === null ? null : this.table.get(keyOf(vault));
    if (stored === null) return { ...defaultContextItemSettings };
    // Settings from a later version, or edited by hand: what cannot be read falls back to the defaults.
    const parsed = contextItemSettingsSchema.safeParse({
      ...defaultContextItemSettings,
      ...JSON.parse(stored),
    });
    return parsed.success ? parsed.data : { ...defaultContextItemSettings };
  }

  /** Saves the open vault's settings; another vault's are not touched. */
  set(settings: ContextItemSettings): ContextItemSettings {
    const vault = this.vault();
    if (vault !== null)
      this.table.put(keyOf(vault), JSON.stringify(contextItemSettingsSchema.parse(settings)));
    return this.get();
  }
}

function keyOf(vault: string): string {
  return `items:${vault}`;
}
