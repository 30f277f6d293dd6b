import { MemoryCalibrationStore } from '../../../src/main/request/count/calibration';
import { ContextEngine } from '../../../src/main/request/context-engine';
import type { ContextOptions } from '../../../src/main/request/context-options';
import type {
  AssembleInput,
  ConversationMessage,
  ModelProfile,
} from '../../../src/main/request/context-types';
import type { LlmMessage } from '../../../src/main/llm/llm-types';

export const gpt4o: ModelProfile = { key: 'https://api.openai.com/v1|gpt-4o', model: 'gpt-4o' };

export function newEngine(
  options?: Partial<ContextOptions>,
  store = new MemoryCalibrationStore(),
): ContextEngine {
  return new ContextEngine({ calibrations: store, options });
}

/** About `tokens` o200k tokens of text (" lorem" is one token), told apart by `tag`. */
export function filler(tokens: number, tag = ''): string {
  return `${tag}${' lorem'.repeat(Math.max(0, tokens))}`;
}

export interface TurnShape {
  user: number;
  /** Tokens of a read_note result; 0 for an answer without tools. */
  tool: number;
  answer: number;
}

/**
 * A stored conversation of `turns` turns: user message 2k+1, then answer 2k+2, which (with a tool)
 * spans an assistant message with a read_note call, its result, and the final text.
 */
export function conversation(
  turns: number,
  shape: TurnShape | ((turn: number) => TurnShape),
): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const size = typeof shape === 'function' ? shape(turn) : shape;
    const userId = 2 * turn + 1;
    const answerId = userId + 1;
    messages.push({ id: userId, message: { role: 'user', text: filler(size.user, `question ${turn}:`) } });
    if (size.tool > 0) {
      const callId = `call-${turn}`;
      messages.push({
        id: answerId,
        message: {
          role: 'assistant',
          text: '',
          toolCalls: [{ id: callId, name: 'read_note', input: { note: `Note ${turn}` } }],
        },
      });
      messages.push({
        id: answerId,
        message: {
          role: 'tool',
          results: [
            {
              id: callId,
              name: 'read_note',
              output: filler(size.tool, `{"document": ${turn + 1}}`),
              isError: false,
            },
          ],
        },
      });
    }
    messages.push({
      id: answerId,
      message: { role: 'assistant', text: filler(size.answer, `answer ${turn}:`), toolCalls: [] },
    });
  }
  return messages;
}

export function baseInput(overrides: Partial<AssembleInput> = {}): AssembleInput {
  return {
    model: gpt4o,
    window: 16_000,
    system: 'You are Kasten, an assistant for the Markdown notes in the vault.',
    history: [],
    current: { id: 10_000, text: 'What do my notes say about gardening?' },
    ...overrides,
  };
}

/** Fails when a request would be refused for its shape: a tool call without its results, or the reverse. */
export function assertCallsPaired(messages: readonly LlmMessage[]): void {
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      const next = messages[index + 1];
      const answered = next?.role === 'tool' ? next.results.map((result) => result.id) : [];
      for (const call of message.toolCalls) {
        if (!answered.includes(call.id)) throw new Error(`tool call ${call.id} is sent without its result`);
      }
    }
    if (message.role === 'tool') {
      const previous = messages[index - 1];
      const calls = previous?.role === 'assistant' ? previous.toolCalls.map((call) => call.id) : [];
      for (const result of message.results) {
        if (!calls.includes(result.id)) throw new Error(`tool result ${result.id} is sent without its call`);
      }
    }
  });
}
