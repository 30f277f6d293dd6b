import type { ChatReference, MessagePart } from '../../shared/chat-domain';
import type { ChatModel } from '../llm/llm-types';
import type { ContextItemInput } from '../request/context-types';
import type { DocumentNumbers } from '../tools/tool-registry';

/**
 * What a message brings besides its words (a saved prompt's `{{note}}` and `model:`): parts kept with it after its
 * text, and items its answer's requests hold, made once the chat numbers its documents.
 */
export interface MessageExtras {
  parts: MessagePart[];
  /** The model that answers it instead of the chat's (a saved prompt's `model:`). */
  model?: ChatModel;
  context(
    numbers: DocumentNumbers,
    signal: AbortSignal,
  ): Promise<{ items: ContextItemInput[]; references: ChatReference[] }>;
}
