import type { ChatReference, MessagePart } from '../../shared/chat-domain';
import type { ContextItemInput } from '../request/context-types';
import type { DocumentNumbers } from '../tools/tool-registry';

/**
 * What a message brings besides its words (a saved prompt's `{{note}}`): parts kept with it after its
 * text, and items its answer's requests hold, made once the chat numbers its documents.
 */
export interface MessageExtras {
  parts: MessagePart[];
  context(
    numbers: DocumentNumbers,
    signal: AbortSignal,
  ): Promise<{ items: ContextItemInput[]; references: ChatReference[] }>;
}
