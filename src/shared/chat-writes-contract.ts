import { z } from 'zod';
import type { UndoOutcome } from './chat-domain';
import { request, sessionId } from './contract-definitions';

/**
 * How a chat's write calls are decided: each waits for the user's approval (`ask`, the default), or they
 * are written at once and the card shows what was done, with Undo (`allow`). The vault's switch still
 * wins: off, nothing is written in any chat.
 */
export type ChatWriteChoice = 'ask' | 'allow';

export interface ChatWrites {
  sessionId: string;
  choice: ChatWriteChoice;
  /** The open vault's "allow writes" switch: off, the chat's choice has no effect. */
  vaultEnabled: boolean;
}

/** Channels of a chat's own choice about writes. */
export const chatWriteRequests = {
  /** Whether a chat asks before each write or writes at once, and the vault's switch. */
  'writes:chat': request<ChatWrites>()(() => z.object({ sessionId }).strict()),
  /** Sets a chat to ask before each write (`ask`) or to write at once (`allow`); the next call follows it. */
  'writes:setChat': request<ChatWrites>()(() =>
    z.object({ sessionId, choice: z.enum(['ask', 'allow']) }).strict(),
  ),
  /**
   * Takes back the chat's latest export to `path`: the note gets its previous bytes again (or is removed
   * when the export made it), only while it still holds what the export wrote.
   */
  'writes:undoExport': request<UndoOutcome>()(() =>
    z.object({ sessionId, path: z.string().min(1).max(4096) }).strict(),
  ),
} as const;
