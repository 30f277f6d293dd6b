import type { WriteSettings } from '../../shared/chat-domain';
import type { SqliteDatabase } from '../storage/database';
import { SettingsTable } from '../storage/settings-table';

/**
 * Who decides on the changes write tools propose: the user, in the chat (`ask`; the tools are offered
 * only in vaults where the user allowed writes); nobody, they are written at once (`automatic`:
 * `kasten ask --allow-writes`); or nothing may be written and the tools are not offered (`refused`).
 */
export type WriteMode = 'ask' | 'automatic' | 'refused';

/** The user's "allow writes" switch of each vault, kept in the app database by the vault's path. */
export class WritePermissions {
  private readonly table: SettingsTable;

  constructor(
    db: SqliteDatabase,
    /** The open vault's path; null when none is open. */
    private readonly vault: () => string | null,
  ) {
    this.table = new SettingsTable(db);
  }

  settings(): WriteSettings {
    const vault = this.vault();
    return { vault, enabled: vault !== null && this.table.get(keyOf(vault)) === 'true' };
  }

  /** Allows or forbids writes in the open vault; another vault's switch is not touched. */
  configure(enabled: boolean): WriteSettings {
    const vault = this.vault();
    if (vault !== null) {
      if (enabled) this.table.put(keyOf(vault), 'true');
      else this.table.delete(keyOf(vault));
    }
    return this.settings();
  }

  /** Whether the write tools are offered to the model in a turn run in `mode`. */
  offered(mode: WriteMode): boolean {
    return mode === 'automatic' || (mode === 'ask' && this.settings().enabled);
  }
}

/** Why no write call may run now; null when they may. Asked before anything else about a write call. */
export function writesRefused(mode: WriteMode, allowed: () => boolean): string | null {
  if (mode === 'refused') {
    return 'Writing to the vault is not allowed here (kasten ask runs without --allow-writes); nothing was written.';
  }
  if (mode === 'ask' && !allowed()) {
    return 'Writing is turned off for this vault; the user can allow it in the chat. Nothing was written.';
  }
  return null;
}

function keyOf(vault: string): string {
  return `writes:${vault}`;
}
