import type { Handlers } from '../../shared/contract';
import type { ChatWrites } from '../../shared/chat-writes-contract';
import type { ChatService } from './chat-service';
import type { VaultWrites } from './vault-writes';
import type { WriteUndo } from './write-undo';

/** The handlers of a chat's own choice about writes. */
export function chatWriteHandlers(
  { chats, permissions }: Pick<VaultWrites, 'chats' | 'permissions'>,
  chat: Pick<ChatService, 'session'>,
  undo: Pick<WriteUndo, 'undoExport'>,
): Pick<Handlers, 'writes:chat' | 'writes:setChat' | 'writes:undoExport'> {
  const view = (sessionId: string): ChatWrites => ({
    sessionId,
    choice: chats.of(sessionId),
    vaultEnabled: permissions.settings().enabled,
  });
  return {
    'writes:chat': async ({ sessionId }) => view(sessionId),
    'writes:setChat': async ({ sessionId, choice }) => {
      // Only a chat of the open vault: chat.session says so in words otherwise.
      chat.session(sessionId);
      chats.set(sessionId, choice);
      return view(sessionId);
    },
    'writes:undoExport': async ({ sessionId, path }) => undo.undoExport(sessionId, path),
  };
}
