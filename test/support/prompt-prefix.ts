import { isSummaryRequest } from './counting-model';
import type { ChatMessage, ChatRequest } from './scripted-model-server';

/** What a request's prompt is made of, in the order a chat template renders it: tools, then messages. */
function promptParts(request: ChatRequest): string[] {
  return [JSON.stringify(request.tools ?? []), ...request.messages.map((message) => JSON.stringify(message))];
}

function commonPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/**
 * The share of prompt characters a server that keeps the previous prompt must process again: for each
 * chat request, what follows the longest common prefix with the one before it, over all prompts.
 */
export function reprocessedShare(requests: readonly ChatRequest[]): {
  share: number;
  total: number;
  again: number;
} {
  let total = 0;
  let again = 0;
  let previous = '';
  for (const request of requests.filter((entry) => !isSummaryRequest(entry))) {
    const prompt = promptParts(request).join('\n');
    total += prompt.length;
    again += prompt.length - commonPrefix(previous, prompt);
    previous = prompt;
  }
  return { share: total === 0 ? 0 : again / total, total, again };
}

const reminderStart = '<system-reminder>';

/** A message without the reminders that close a request (they are not kept), or null when it is one. */
function withoutReminder(message: ChatMessage): ChatMessage | null {
  if (message.role !== 'user' || typeof message.content !== 'string') return message;
  const at = message.content.indexOf(reminderStart);
  if (at === -1) return message;
  const kept = message.content.slice(0, at).trimEnd();
  return kept === '' ? null : { ...message, content: kept };
}

/**
 * Where `next` stops extending `previous`: null when `previous`' messages, less its trailing reminder,
 * are the start of `next`'s (the last of them may go on in `next`, as a question continues with its
 * linked notes), and tools and system prompt are the same. Otherwise the index of the first message
 * that differs (-1: the tools).
 */
export function divergence(previous: ChatRequest, next: ChatRequest): number | null {
  if (JSON.stringify(previous.tools ?? []) !== JSON.stringify(next.tools ?? [])) return -1;
  const kept = [...previous.messages];
  const last = kept.pop();
  const closing = last ? withoutReminder(last) : null;
  if (closing) kept.push(closing);
  for (const [index, message] of kept.entries()) {
    const other = next.messages[index];
    if (!other) return index;
    if (index === kept.length - 1 && typeof message.content === 'string') {
      const same =
        other.role === message.role &&
        typeof other.content === 'string' &&
        other.content.startsWith(message.content) &&
        JSON.stringify({ ...other, content: '' }) === JSON.stringify({ ...message, content: '' });
      if (!same) return index;
    } else if (JSON.stringify(other) !== JSON.stringify(message)) return index;
  }
  return null;
}

/** The requests' pairs (by index in the chat log) where the next one does not only append. */
export function breaks(requests: readonly ChatRequest[]): { at: number; message: number }[] {
  const chat = requests.filter((entry) => !isSummaryRequest(entry));
  const found: { at: number; message: number }[] = [];
  for (let index = 1; index < chat.length; index++) {
    const message = divergence(chat[index - 1]!, chat[index]!);
    if (message !== null) found.push({ at: index, message });
  }
  return found;
}
