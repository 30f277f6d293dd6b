import { describe, expect, it } from 'vitest';
import type { LlmMessage } from '../../../src/main/llm/llm-types';
import { assertCallsPaired, baseInput, conversation, filler, newEngine } from './context-fixtures';

const window = 12_143; // usable 8,500 (3,035 kept for the answer, 608 margin): threshold 6,800
const toolOutputs = (messages: readonly LlmMessage[]) =>
  messages.flatMap((message) =>
    message.role === 'tool' ? message.results.map((result) => result.output) : [],
  );

describe('the hybrid strategy', () => {
  const history = conversation(12, { user: 30, tool: 600, answer: 80 });

  it('masks the oldest tool results, up to a cut point before the tail, before it drops or summarizes anything', () => {
    const result = newEngine().assemble(baseInput({ strategy: 'hybrid', window, history }));
    expect(result.history.omittedIds).toEqual([]);
    const masked = result.history.masked;
    // The tail's four turns stay whole; older ones are masked up to the last cut point before it.
    expect(masked).toBeGreaterThan(4);
    expect(masked).toBeLessThanOrEqual(8);
    expect(result.compaction).toBeNull();
    const outputs = toolOutputs(result.messages);
    expect(outputs).toHaveLength(12);
    for (const output of outputs.slice(0, masked)) {
      expect(output).toMatch(
        /^\{"document": \d+\} lorem[\s\S]*\[… \d[\d,]* tokens omitted; call read_note again/,
      );
    }
    for (const output of outputs.slice(masked)) expect(output).not.toContain('omitted');
    expect(result.items.find((item) => item.kind === 'history')).toMatchObject({ form: 'masked' });
    assertCallsPaired(result.messages);
  });

  it('where summarize, given the same conversation, drops old turns and compacts', () => {
    const result = newEngine().assemble(baseInput({ strategy: 'summarize', window, history }));
    expect(result.history.masked).toBe(0);
    expect(result.history.omittedIds.length).toBeGreaterThan(0);
    expect(result.compaction).not.toBeNull();
  });

  it('leaves tool results whole while the conversation is below the threshold', () => {
    const short = conversation(5, { user: 30, tool: 600, answer: 80 });
    const result = newEngine().assemble(baseInput({ strategy: 'hybrid', window, history: short }));
    expect(result.history.masked).toBe(0);
    for (const output of toolOutputs(result.messages)) expect(output).not.toContain('omitted');
  });

  it('compacts when masking is not enough', () => {
    const long = conversation(40, { user: 30, tool: 600, answer: 80 });
    const result = newEngine().assemble(baseInput({ strategy: 'hybrid', window, history: long }));
    expect(result.history.masked).toBeGreaterThan(0);
    expect(result.compaction).not.toBeNull();
    expect(result.compaction!.coveredIds).toEqual(Array.from({ length: 72 }, (_, i) => i + 1));
  });

  it('in the retry after a context-length error, masks regardless of the threshold and drops retrieved notes', () => {
    const short = conversation(6, { user: 30, tool: 600, answer: 80 });
    const items = [
      { kind: 'reference' as const, label: 'Maybe', include: 'retrieved' as const, score: 0.9, text: 'x' },
    ];
    const engine = newEngine();
    const normal = engine.assemble(baseInput({ strategy: 'hybrid', window, history: short, items }));
    const retry = engine.assemble(
      baseInput({ strategy: 'hybrid', window, history: short, items, aggressive: true }),
    );
    expect(normal.history.masked).toBe(0);
    expect(retry.history.masked).toBe(4); // all but the last two turns, the aggressive tail
    expect(retry.budget.usable).toBeLessThan(normal.budget.usable);
    expect(retry.estimate.raw).toBeLessThan(normal.estimate.raw);
    expect(retry.dropped).toMatchObject([{ label: 'Maybe' }]);
  });

  it('masks this turn’s earlier tool results when a long tool loop would not fit otherwise', () => {
    const turn: LlmMessage[] = [];
    for (let step = 0; step < 6; step++) {
      const id = `c${step}`;
      turn.push({
        role: 'assistant',
        text: '',
        toolCalls: [{ id, name: 'read_note', input: { note: `N${step}` } }],
      });
      turn.push({
        role: 'tool',
        results: [{ id, name: 'read_note', output: filler(1_500, `step ${step}`), isError: false }],
      });
    }
    const result = newEngine().assemble(baseInput({ strategy: 'hybrid', window, turn }));
    expect(result.overflow).toBeNull();
    const outputs = toolOutputs(result.messages);
    for (const output of outputs.slice(0, 5)) expect(output).toContain('tokens omitted');
    expect(outputs[5]).not.toContain('omitted');
    expect(result.items.filter((item) => item.kind === 'tool-results').map((item) => item.form)).toEqual([
      'masked',
      'masked',
      'masked',
      'masked',
      'masked',
      'whole',
    ]);
  });
});
