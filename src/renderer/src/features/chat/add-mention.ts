import { useChatStore } from './chat-store';
import { useItemsStore } from '../items/items-store';
import type { MentionCandidate } from './mention-suggestions';

/** What the composer says once an `@` was chosen: what was added, why nothing was, or main's refusal. */
export interface MentionNotice {
  text: string;
  failed: boolean;
}

const nouns: Record<MentionCandidate['kind'], string> = { rule: 'rule', tool: 'tool', note: 'note' };

/** Adds what `@` chose to the open chat (or to the chat's first message): pins a note, adds a rule or tool. */
export async function addMention(candidate: MentionCandidate): Promise<MentionNotice> {
  const { kind, key, label, include } = candidate;
  const name = kind === 'note' ? `“${label}”` : `the ${nouns[kind]} “${label}”`;
  if (include === 'always')
    return { text: `Nothing to add: ${name} is always included, in every request.`, failed: false };
  if (candidate.active)
    return {
      text: kind === 'note' ? `${name} is already pinned to this chat.` : `${name} is already in this chat.`,
      failed: false,
    };
  const refusal = await useItemsStore.getState().set(kind === 'note' ? 'pinned' : kind, key, true, label);
  if (refusal) return { text: refusal, failed: true };
  const when = useChatStore.getState().session ? '' : ' It goes with your first message.';
  const added = kind === 'note' ? `Pinned ${name} to this chat.` : `Added ${name} to this chat.`;
  const chosen = include === 'agent' ? ' You chose it, so it counts as manual here.' : '';
  return { text: `${added}${chosen}${when}`, failed: false };
}
