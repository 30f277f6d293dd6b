import type { Handlers } from '../../shared/contract';
import type { AppEvents } from '../app-events';
import type { WriteDecisions } from './write-decisions';
import type { WriteMode, WritePermissions } from './write-permissions';
import type { NoteWriter } from './write-tools';

/** The write tools' state: each vault's switch, the decisions answers wait for, and who decides. */
export interface VaultWrites {
  permissions: WritePermissions;
  decisions: WriteDecisions;
  /** Who decides on write calls unless an answer says otherwise. */
  mode: WriteMode;
  /** The open vault's notes, as the write tools change them. */
  writer: NoteWriter;
}

/** The handlers of the write channels: the user's decisions on proposed changes, and the vault's switch. */
export function writeHandlers(
  { permissions, decisions }: Pick<VaultWrites, 'permissions' | 'decisions'>,
  events: AppEvents,
): Pick<Handlers, 'chat:approve' | 'writes:status' | 'writes:configure'> {
  return {
    'chat:approve': async ({ sessionId, callId, approved }) => {
      decisions.decide(sessionId, callId, approved);
      return null;
    },
    'writes:status': async () => permissions.settings(),
    'writes:configure': async ({ enabled }) => {
      const settings = permissions.configure(enabled);
      // The tool schemas the next request sends changed: the meter counts them.
      events.emit('context:changed', { sessionId: '' });
      return settings;
    },
  };
}
