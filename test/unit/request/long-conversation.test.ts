import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../src/main/request/context-types';
import { assertCallsPaired, baseInput, conversation, newEngine } from './context-fixtures';

describe('a conversation of 5,000 messages', () => {
  const history: ConversationMessage[] = conversation(1_250, (turn) => ({
    user: 20 + (turn % 13),
    tool: 100 + (turn % 7) * 20,
    answer: 60 + (turn % 11) * 5,
  }));

  it('has 5,000 messages', () => {
    expect(history).toHaveLength(5_000);
  });

  it.each([
    ['a 128k window', 'gpt-4o', 128_000],
    ['a 1M window, where all of it fits', 'gpt-4.1', 1_047_576],
  ])('is assembled turn after turn in %s', (_name, model, window) => {
    const engine = newEngine();
    const profile = { key: model, model };
    const input = baseInput({ model: profile, window, history, strategy: 'hybrid' });
    const first = engine.assemble(input);
    // The next turn: the same stored messages read again (new objects), plus the turn just answered.
    const next = [
      ...structuredClone(history),
      { id: 10_000, message: { role: 'user' as const, text: 'What do my notes say about gardening?' } },
      { id: 10_001, message: { role: 'assistant' as const, text: 'Tomatoes need sun.', toolCalls: [] } },
    ];
    const second = engine.assemble({
      ...input,
      history: next,
      current: { id: 10_002, text: 'And potatoes?' },
    });
    for (const result of [first, second]) {
      assertCallsPaired(result.messages);
      expect(result.items.reduce((sum, item) => sum + item.tokens, 0)).toBe(result.estimate.raw);
      expect(result.estimate.calibrated).toBeLessThanOrEqual(result.budget.usable);
      expect(result.history.sentIds.length + result.history.omittedIds.length).toBeGreaterThan(2_400);
    }
    expect(second.history.sentIds.at(-1)).toBe(10_001);
    if (window < 1_000_000) expect(second.compaction).not.toBeNull();
    else expect(second.history.omittedIds).toEqual([]);
  });
});
