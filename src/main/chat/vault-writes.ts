import type { Handlers } from '../../shared/contract';
import type { AppEvents } from '../app-events';
import type { ChatWriteChoices } from './chat-write-choices';
import type { WriteDecisions } from './write-decisions';
import type { WriteMode, WritePermissions } from './write-permissions';
import type { WriteRecords } from './write-records';
import type { NoteWriter } from './write-tools';
import type { WriteUndo } from './write-undo';

/** The write tools' state: each vault's switch, the decisions answers wait for, and who decides. */
export interface VaultWrites {
  permissions: WritePermissions;
  decisions: WriteDecisions;
  /** Who decides on write calls unless an answer says otherwise. */
  mode: WriteMode;
  /** The open vault's notes, as the write tools change them. */
  writer: NoteWriter;
  /** What each write replaced, for its undo. */
  records: WriteRecords;
  /** Each chat's choice: ask before each write, or write at once. */
  chats: ChatWriteChoices;
}

/**
 * The handlers of the write channels: the user's decisions on proposed changes, the vault's switch,
 * and undoing what was written.
 */
export function writeHandlers(
  { permissions, decisions }: Pick<VaultWrites, 'permissions' | 'decisions'>,
  undo: WriteUndo,
  events: AppEvents,
): Pick<Handlers, 'chat:approve' | 'writes:status' | 'writes:configure' | 'writes:undo'> {
  return {
    'writes:undo': async ({ sessionId, messageId, callId }) =>
      undo.undo(
        sessionId,
        messageId !== undefined && callId !== undefined ? { messageId, callId } : undefined,
      ),
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
