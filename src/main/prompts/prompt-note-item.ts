import type { ChatReference } from '../../shared/chat-domain';
import type { MessageExtras } from '../chat/message-extras';
import type { TextVectors } from '../embeddings/text-vectors';
import { pinnedItem } from '../request/sources/pinned-input';

/** The note a prompt's `{{note}}` names, as read for one message. */
export interface PromptNoteSource {
  path: string;
  title: string;
  content: string;
}

/**
 * What `{{note}}` brings to a message: the note as a pinned note goes (whole while it fits the pinned
 * share, else its passages most relevant to `text`), said in Context used as the variable that put it
 * there. The send, the meter's draft and Retry all make it here, so all three count the same item.
 */
export function promptNoteContext(
  note: PromptNoteSource | null,
  text: string,
  pinnedShare: number,
  tokens: (text: string) => number,
  vectors: TextVectors | null,
): MessageExtras['context'] {
  return async (numbers, signal) => {
    if (!note) return { items: [], references: [] };
    const pinned = await pinnedItem(note, text, pinnedShare, tokens, numbers, vectors, signal);
    const item = { ...pinned.item, label: `{{note}} ${note.title}`, include: 'direct' as const };
    const reference: ChatReference = {
      path: note.path,
      title: note.title,
      kind: 'direct',
      toolCallId: null,
      document: numbers(note.path, note.title),
      subpath: null,
      mode: null,
      tokens: null,
      summary: '',
    };
    return { items: [item], references: [reference] };
  };
}
