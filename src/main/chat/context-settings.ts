import { defaultContextSettings, type ContextSettings } from '../../shared/context-domain';
import type { ContextOptions } from '../request/context-options';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/** The user's context settings, kept in the app database; missing fields read as the defaults. */
export class ContextSettingsStore {
  private readonly table: SettingsTable;

  constructor(db: SqliteDatabase) {
    this.table = new SettingsTable(db);
  }

  get(): ContextSettings {
    const stored = this.table.get('context');
    const saved = stored === null ? {} : (JSON.parse(stored) as Partial<ContextSettings>);
    return { ...defaultContextSettings, ...saved };
  }

  set(settings: ContextSettings): ContextSettings {
    this.table.put('context', JSON.stringify(settings));
    return this.get();
  }
}

/** The settings as the context engine takes them: shares of one, not percent. */
export function engineOptions(settings: ContextSettings): Partial<ContextOptions> {
  const { system, context, conversation } = settings.shares;
  return {
    shares: { system: system / 100, context: context / 100, conversation: conversation / 100 },
    threshold: settings.threshold / 100,
    tailTurns: settings.tailTurns,
  };
}
