import type { ChatMessage } from '../../src/shared/chat-domain';

/** A finished message with nothing in it but what `overrides` gives. */
export function chatMessage(overrides: Partial<ChatMessage>): ChatMessage {
  return {
    id: 1,
    sessionId: 's1',
    role: 'user',
    parts: [],
    status: 'complete',
    model: null,
    error: null,
    usage: null,
    references: [],
    requests: [],
    createdAt: '2024-05-01T09:30:00.000Z',
    updatedAt: '2024-05-01T09:30:00.000Z',
    ...overrides,
  };
}
