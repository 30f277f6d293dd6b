import { describe, expect, it } from 'vitest';
import type { LlmMessage } from '../../../src/main/llm/llm-types';
import { assertCallsPaired, baseInput, conversation, newEngine } from './context-fixtures';

const firstText = (messages: readonly LlmMessage[]) => {
  const first = messages[0];
  return first?.role === 'user' ? first.text : '';
};

describe('the discard strategy', () => {
  it('fills from the newest message backwards and leaves the oldest out', () => {
    const history = conversation(20, { user: 100, tool: 0, answer: 300 });
    const result = newEngine().assemble(baseInput({ strategy: 'discard', window: 4_000, history }));
    expect(result.history.omittedIds.length).toBeGreaterThan(0);
    expect(result.history.sentIds.length).toBeGreaterThan(0);
    // What is sent is the newest stretch, and together with what is left out it is the whole conversation.
    const lastSent = result.history.sentIds.at(-1)!;
    expect(lastSent).toBe(40);
    expect(Math.max(...result.history.omittedIds)).toBeLessThan(Math.min(...result.history.sentIds));
    expect(result.history.omittedIds.length + result.history.sentIds.length).toBe(40);
    expect(result.estimate.calibrated).toBeLessThanOrEqual(result.budget.usable);
    expect(result.overflow).toBeNull();
  });

  it('never separates a tool call from its result, at any window size, and starts at a user message', () => {
    const history = conversation(12, (turn) => ({
      user: 40 + turn * 7,
      tool: 150 + ((turn * 97) % 400),
      answer: 60,
    }));
    const engine = newEngine();
    for (let window = 1_500; window <= 12_000; window += 137) {
      const result = engine.assemble(baseInput({ strategy: 'discard', window, history }));
      assertCallsPaired(result.messages);
      const historySent = result.history.sentIds.length > 0;
      if (historySent) expect(firstText(result.messages)).toMatch(/^question \d+:/);
      expect(result.compaction).toBeNull();
    }
  });

  it('sends an answer that was stopped before its tool ran without the dangling call', () => {
    const history = [
      { id: 1, message: { role: 'user' as const, text: 'Read my garden note' } },
      {
        id: 2,
        message: {
          role: 'assistant' as const,
          text: 'Reading it now.',
          toolCalls: [{ id: 'c1', name: 'read_note', input: { note: 'Garden' } }],
        },
      },
    ];
    const result = newEngine().assemble(baseInput({ strategy: 'discard', history }));
    assertCallsPaired(result.messages);
    expect(result.messages[1]).toEqual({ role: 'assistant', text: 'Reading it now.', toolCalls: [] });
  });

  it('compacts only when the user asks for it', () => {
    const history = conversation(40, { user: 100, tool: 0, answer: 300 });
    const engine = newEngine();
    expect(engine.assemble(baseInput({ strategy: 'discard', window: 4_000, history })).compaction).toBeNull();
    const asked = engine.assemble(baseInput({ strategy: 'discard', window: 4_000, history, compactNow: {} }));
    expect(asked.compaction).toMatchObject({ reason: 'requested' });
  });
});
