import { defaultPromptsFolder } from '../../shared/prompt-domain';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/** Each vault's prompts folder, kept in the app database by the vault's path. */
export class PromptSettingsStore {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    /** The open vault's path; null when none is open. */
    private readonly vault: () => string | null,
  ) {
    this.table = new SettingsTable(db);
  }

  folder(): string {
    const vault = this.vault();
    const stored = vault === null ? null : this.table.get(`prompts:${vault}`);
    return stored ?? defaultPromptsFolder;
  }

  /** Saves the open vault's prompts folder; '' goes back to the default. */
  setFolder(folder: string): string {
    const vault = this.vault();
    const cleaned = folder.trim().replace(/^\/+|\/+$/g, '');
    if (vault !== null) {
      if (cleaned === '') this.table.delete(`prompts:${vault}`);
      else this.table.put(`prompts:${vault}`, cleaned);
    }
    return this.folder();
  }
}
