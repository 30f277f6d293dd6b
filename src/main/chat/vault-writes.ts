import type { Handlers } from '../../shared/contract';
import type { AppEvents } from '../app-events';
import type { SqliteDatabase } from '../storage/database';
import { WriteDecisions } from './write-decisions';
import { WritePermissions, type WriteMode } from './write-permissions';
import type { NoteWriter } from './write-tools';

/** The write tools' state: each vault's switch, the decisions answers wait for, and who decides. */
export interface VaultWrites {
  permissions: WritePermissions;
  decisions: WriteDecisions;
  /** Who decides on write calls unless an answer says otherwise. */
  mode: WriteMode;
  /** The open vault's notes, as the write tools change them. */
  writer: NoteWriter;
  handlers: Pick<Handlers, 'chat:approve' | 'writes:status' | 'writes:configure'>;
}

export function createVaultWrites(options: {
  db: SqliteDatabase;
  events: AppEvents;
  /** The open vault's path; null when none is open. */
  vault: () => string | null;
  writer: NoteWriter;
  mode: WriteMode;
}): VaultWrites {
  const permissions = new WritePermissions(options.db, options.vault);
  const decisions = new WriteDecisions();
  return {
    permissions,
    decisions,
    mode: options.mode,
    writer: options.writer,
    handlers: {
      'chat:approve': async ({ sessionId, callId, approved }) => {
        decisions.decide(sessionId, callId, approved);
        return null;
      },
      'writes:status': async () => permissions.settings(),
      'writes:configure': async ({ enabled }) => {
        const settings = permissions.configure(enabled);
        // The tool schemas the next request sends changed: the meter counts them.
        options.events.emit('context:changed', { sessionId: '' });
        return settings;
      },
    },
  };
}
