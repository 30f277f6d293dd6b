import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/shared/chat-domain';
import type { RequestContext } from '../../../src/shared/context-domain';
import { contextNotices } from '../../../src/renderer/src/features/chat/message-notices';
import { chatMessage } from '../../support/chat-message';

const request = (notices: string[]) => ({ notices }) as unknown as RequestContext;

function answer(overrides: Partial<ChatMessage>): ChatMessage {
  return chatMessage({ id: 2, role: 'assistant', ...overrides });
}

const embeddingNotice =
  'Rules, tools and pinned passages were matched to the message by words. The embedding server is not reachable.';

describe('the notices above an answer', () => {
  it('are said once each', () => {
    const message = answer({
      parts: [{ type: 'text', step: 0, text: 'Links matter.' }],
      requests: [request([embeddingNotice]), request([embeddingNotice])],
    });
    expect(contextNotices(message)).toEqual([embeddingNotice]);
  });

  it('leave an answer that failed before its first word to its one error', () => {
    const message = answer({
      status: 'error',
      error: 'Cannot reach the model server at http://127.0.0.1:11434 (ECONNREFUSED). Is it running?',
      requests: [request([embeddingNotice])],
    });
    expect(contextNotices(message)).toEqual([]);
  });
});
