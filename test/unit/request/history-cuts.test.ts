import { describe, expect, it } from 'vitest';
import type { HistoryCut } from '../../../src/main/request/history/history-plan';
import type { ContextStrategy } from '../../../src/main/request/context-types';
import type { LlmMessage } from '../../../src/main/llm/llm-types';
import { baseInput, conversation, filler, newEngine, type TurnShape } from './context-fixtures';

/**
 * A chat of `turns` questions, each planned with the cut of the request before it: the turns at which
 * a request does not start with the whole of the one before (its messages, then the question).
 */
function cutsOver(turns: number, strategy: ContextStrategy, window: number, shape: TurnShape): number[] {
  const engine = newEngine();
  let previous: { messages: LlmMessage[]; cut: HistoryCut } | null = null;
  const cuts: number[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const history = conversation(turn - 1, shape);
    const result = engine.assemble(
      baseInput({
        strategy,
        window,
        history,
        current: { id: 2 * turn - 1, text: filler(shape.user, `question ${turn - 1}:`) },
        previousCut: previous?.cut ?? null,
      }),
    );
    const sent = JSON.stringify(result.messages);
    if (previous && !sent.startsWith(JSON.stringify(previous.messages).slice(0, -1))) cuts.push(turn);
    previous = {
      messages: result.messages,
      cut: { firstId: result.history.sentIds[0] ?? null, maskedBefore: result.history.maskedBefore },
    };
  }
  return cuts;
}

describe('cutting the history in chunks', () => {
  it('under discard, leaves old turns out a chunk at a time: the next requests only append', () => {
    const cuts = cutsOver(40, 'discard', 4_700, { user: 60, tool: 0, answer: 200 });
    expect(cuts.length).toBeGreaterThan(0);
    for (let index = 1; index < cuts.length; index++) {
      expect(cuts[index]! - cuts[index - 1]!, `cuts at turns ${cuts.join(', ')}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('under hybrid, masks old tool results a chunk at a time, not one more at every turn', () => {
    const cuts = cutsOver(24, 'hybrid', 20_000, { user: 40, tool: 500, answer: 80 });
    expect(cuts.length).toBeGreaterThan(0);
    for (let index = 1; index < cuts.length; index++) {
      expect(cuts[index]! - cuts[index - 1]!, `cuts at turns ${cuts.join(', ')}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('never starts the history before where the previous request started it', () => {
    const history = conversation(20, { user: 60, tool: 0, answer: 200 });
    const engine = newEngine();
    const input = baseInput({ strategy: 'discard', window: 4_000, history });
    const big = engine.assemble({ ...input, current: { id: 10_000, text: filler(1_200, 'long question:') } });
    const firstId = big.history.sentIds[0]!;
    // A short question leaves more room, yet the history starts where the long one's did.
    const next = engine.assemble({ ...input, previousCut: { firstId, maskedBefore: null } });
    expect(next.history.sentIds[0]).toBe(firstId);
    expect(engine.assemble(input).history.sentIds[0]).toBeLessThan(firstId);
  });
});
