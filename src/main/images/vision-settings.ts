import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/** What the user said of a model: it sees images (`on`), it does not (`off`), or Kasten finds out (`auto`). */
export type VisionChoice = 'auto' | 'on' | 'off';

/** The user's word on which models see images, per model, kept in the app database. */
export class VisionSettings {
  private readonly table: SettingsTable;

  constructor(db: SqliteDatabase) {
    this.table = new SettingsTable(db);
  }

  choice(modelKey: string): VisionChoice {
    return this.all()[modelKey] ?? 'auto';
  }

  set(modelKey: string, choice: VisionChoice): void {
    const { [modelKey]: _old, ...others } = this.all();
    this.table.put('vision', JSON.stringify(choice === 'auto' ? others : { ...others, [modelKey]: choice }));
  }

  private all(): Record<string, 'on' | 'off'> {
    const stored = this.table.get('vision');
    if (stored === null) return {};
    const parsed = JSON.parse(stored) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, 'on' | 'off'>) : {};
  }
}
