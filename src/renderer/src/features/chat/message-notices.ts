import type { ChatMessage } from '../../../../shared/chat-domain';

/**
 * What the context engine had to do that changes what the model saw (older messages left out because
 * summarizing failed, a server's smaller window, a truncation), said once above the answer. An answer
 * that failed before a word or a tool call shows its error alone: how a request nobody answered was
 * fitted does not matter, and its notices would say the same failure a second time.
 */
export function contextNotices(message: ChatMessage): string[] {
  if (message.status === 'error' && message.parts.length === 0) return [];
  return [...new Set(message.requests.flatMap((request) => request.notices))];
}
