import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/**
 * The text being typed in each chat of a vault, and in its chat not started yet, kept in the app
 * database: it outlives a reload, a restart and the browser host's new address, until it is sent.
 */
export class ChatDrafts {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    /** The open vault's folder: drafts are kept per vault. */
    private readonly vaultRoot: () => string,
  ) {
    this.table = new SettingsTable(db);
  }

  /** The draft of a chat (or of the chat not started yet); '' when there is none. */
  read(sessionId: string | undefined): string {
    return this.table.get(this.key(sessionId)) ?? '';
  }

  /** Keeps `text` as the chat's draft; blank text forgets it. */
  save(sessionId: string | undefined, text: string): void {
    if (text.trim() === '') this.table.delete(this.key(sessionId));
    else this.table.put(this.key(sessionId), text);
  }

  private key(sessionId: string | undefined): string {
    return `draft:${this.vaultRoot()}:${sessionId ?? 'new'}`;
  }
}
