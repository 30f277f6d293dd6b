import { describe, expect, it } from 'vitest';
import { chunkCompaction } from '../../../src/main/request/history/compaction-chunks';
import type { CompactionPlan } from '../../../src/main/request/history/compaction-plan';
import type { ConversationMessage } from '../../../src/main/request/context-types';
import { defaultCutNotice } from '../../../src/main/request/fit/head-tail';
import { TokenCounter } from '../../../src/main/request/count/token-counter';
import { baseInput, conversation, gpt4o, newEngine } from './context-fixtures';

const window = 12_143; // usable 8,500 (3,035 kept for the answer, 608 margin): threshold 6,800, tail bound 3,400
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const chunksOf = (plan: CompactionPlan) =>
  chunkCompaction(plan, new TokenCounter('o200k_base'), defaultCutNotice);
const roleOf = (history: readonly ConversationMessage[], id: number) =>
  history.find((entry) => entry.id === id)!.message.role;

describe('the summarize strategy', () => {
  it('does not compact below the threshold', () => {
    const history = conversation(18, { user: 50, tool: 0, answer: 250 });
    const result = newEngine().assemble(baseInput({ strategy: 'summarize', window, history }));
    expect(result.estimate.raw).toBeLessThan(result.budget.raw.threshold);
    expect(result.compaction).toBeNull();
  });

  it('past the threshold, plans to summarize all but the last 4 turns, whose tail starts at a user message', () => {
    const history = conversation(30, { user: 50, tool: 0, answer: 250 });
    const result = newEngine().assemble(baseInput({ strategy: 'summarize', window, history }));
    const plan = result.compaction!;
    expect(plan.reason).toBe('threshold');
    expect(plan.coveredIds).toEqual(ids(1, 52));
    const firstKept = 53;
    expect(roleOf(history, firstKept)).toBe('user');
    expect(plan.previousSummary).toBeNull();
    const transcripts = chunksOf(plan)
      .map((chunk) => chunk.transcript)
      .join('\n');
    expect(transcripts).toContain('User:\nquestion 0:');
    expect(transcripts).toContain('question 25:');
    expect(transcripts).not.toContain('question 26:');
    // Until the summary exists, the request itself still fits: the oldest turns are left out.
    expect(result.overflow).toBeNull();
    expect(result.history.omittedIds.length).toBeGreaterThan(0);
  });

  it('bounds the verbatim tail in tokens: large last turns leave fewer of them verbatim', () => {
    const history = conversation(12, (turn) => ({ user: 50, tool: 0, answer: turn >= 8 ? 1_400 : 300 }));
    const plan = newEngine().assemble(baseInput({ strategy: 'summarize', window, history })).compaction!;
    // Turns 10 and 11 (about 2,900 tokens) fit the 3,400-token bound; a third large turn would not.
    expect(plan.coveredIds).toEqual(ids(1, 20));
    expect(roleOf(history, 21)).toBe('user');
  });

  it('sends the summary instead of the messages it covers, and plans nothing more while it fits', () => {
    const history = conversation(30, { user: 50, tool: 0, answer: 250 });
    const summary = {
      text: '## Goal\nGardening plans.\n## Facts\nTomatoes need sun [3].',
      coveredIds: ids(1, 52),
    };
    const result = newEngine().assemble(baseInput({ strategy: 'summarize', window, history, summary }));
    expect(result.compaction).toBeNull();
    expect(result.history.sentIds).toEqual(ids(53, 60));
    expect(result.history.omittedIds).toEqual([]);
    expect(result.history.summarizedIds).toEqual(ids(1, 52));
    const summaryItem = result.items.find((item) => item.kind === 'summary')!;
    expect(summaryItem).toMatchObject({ include: 'history', messageIds: ids(1, 52) });
    const first = result.messages[0]!;
    expect(first.role === 'user' && first.text).toMatch(
      /^<conversation-summary>[\s\S]*Tomatoes need sun \[3\]/,
    );
    expect(first.role === 'user' && first.text).toContain('question 26:');
  });

  it('merges the previous summary when the conversation grows past the threshold again', async () => {
    const history = conversation(60, { user: 50, tool: 0, answer: 250 });
    const summary = { text: '## Goal\nGardening plans.', coveredIds: ids(1, 52) };
    const engine = newEngine();
    const plan = engine.assemble(baseInput({ strategy: 'summarize', window, history, summary })).compaction!;
    expect(plan.previousSummary).toBe(summary.text);
    expect(plan.coveredIds.slice(0, 52)).toEqual(ids(1, 52));
    expect(chunksOf(plan)[0]!.messageIds[0]).toBe(53);
    const prompts: string[] = [];
    await engine.compact(
      gpt4o,
      plan,
      { summarize: (prompt) => (prompts.push(prompt), Promise.resolve('')) },
      new AbortController().signal,
    );
    expect(prompts[0]).toContain('<previous-summary>\n## Goal\nGardening plans.');
  });

  it('compacts on demand below the threshold, with the focus in the prompt', () => {
    const history = conversation(10, { user: 50, tool: 0, answer: 250 });
    const result = newEngine().assemble(
      baseInput({ strategy: 'summarize', window, history, compactNow: { focus: 'the tomato varieties' } }),
    );
    expect(result.compaction).toMatchObject({
      reason: 'requested',
      coveredIds: ids(1, 12),
      focus: 'the tomato varieties',
    });
  });
});
