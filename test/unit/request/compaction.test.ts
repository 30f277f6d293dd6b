import { describe, expect, it } from 'vitest';
import type { Summarizer } from '../../../src/main/request/history/compaction';
import { chunkCompaction } from '../../../src/main/request/history/compaction-chunks';
import type { CompactionPlan } from '../../../src/main/request/history/compaction-plan';
import { defaultCutNotice } from '../../../src/main/request/fit/head-tail';
import { checkSummary, cleanSummary } from '../../../src/main/request/history/summary-validation';
import { buildSummaryPrompt } from '../../../src/main/request/history/summary-prompt';
import { messageOverhead, TokenCounter } from '../../../src/main/request/count/token-counter';
import { baseInput, conversation, filler, gpt4o, newEngine } from './context-fixtures';

const counter = new TokenCounter('o200k_base');
const chunksOf = (plan: CompactionPlan) => chunkCompaction(plan, counter, defaultCutNotice);
const signal = new AbortController().signal;

const structured = (facts: string) =>
  `## Goal\nPlan the garden.\n## Decisions\nTomatoes first.\n## Facts\n${facts}\n## Open questions\nNone.\n## Next steps\nBuy seeds.`;

/** A summarizer that answers from a script and remembers the prompts it was given. */
function scripted(answers: (prompt: string, call: number) => string): Summarizer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    summarize: (prompt) => {
      prompts.push(prompt);
      return Promise.resolve(answers(prompt, prompts.length - 1));
    },
  };
}

function planFor(turns: number, window = 10_000): CompactionPlan {
  const history = conversation(turns, { user: 30, tool: 400, answer: 80 });
  const plan = newEngine().assemble(baseInput({ strategy: 'summarize', window, history })).compaction;
  if (!plan) throw new Error('expected a compaction plan');
  return plan;
}

describe('running a compaction', () => {
  it('returns the summary with the ids it covers, keeping citation numbers', async () => {
    const plan = planFor(30);
    const summarizer = scripted(() => structured('Tomatoes need sun [1], see [[Tomatoes]].'));
    const outcome = await newEngine().compact(gpt4o, plan, summarizer, signal);
    expect(outcome).toMatchObject({ ok: true, notice: null });
    expect(outcome.ok && outcome.summary.coveredIds).toEqual(plan.coveredIds);
    expect(summarizer.prompts[0]).toContain('## Facts: what was learned from the notes');
    expect(summarizer.prompts[0]).toContain('There is no previous summary.');
    expect(summarizer.prompts[0]).toMatch(/<conversation>\nUser:\nquestion 0:/);
  });

  it('is progressive: each chunk’s prompt carries the summary written so far', async () => {
    const plan = planFor(60, 6_000);
    const chunks = chunksOf(plan);
    expect(chunks.length).toBeGreaterThan(1);
    const summarizer = scripted((_prompt, call) => structured(`Chunk ${call} learned [1].`));
    const outcome = await newEngine().compact(gpt4o, plan, summarizer, signal);
    expect(outcome.ok).toBe(true);
    expect(summarizer.prompts).toHaveLength(chunks.length);
    expect(summarizer.prompts[1]).toContain('<previous-summary>');
    expect(summarizer.prompts[1]).toContain('Chunk 0 learned [1].');
    expect(outcome.ok && outcome.summary.text).toContain(`Chunk ${chunks.length - 1} learned`);
  });

  it('keeps every summarization request and its answer within the window, however long the conversation', () => {
    const window = 6_000;
    const plan = planFor(200, window);
    const longestSummary = filler(plan.maxSummaryTokens);
    for (const chunk of chunksOf(plan)) {
      const prompt = buildSummaryPrompt({
        previous: longestSummary,
        transcript: chunk.transcript,
        maxTokens: plan.maxSummaryTokens,
      });
      expect(counter.text(prompt) + 2 * messageOverhead + plan.maxSummaryTokens).toBeLessThanOrEqual(
        window * 0.95,
      );
    }
  });

  it('rejects a summary that is not smaller than what it replaces, and falls back with a notice', async () => {
    const plan = planFor(30);
    const bloated = structured('Everything, again. '.repeat(4_000));
    const outcome = await newEngine().compact(
      gpt4o,
      plan,
      scripted(() => bloated),
      signal,
    );
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(/not smaller than what it replaces/);
    expect(!outcome.ok && outcome.notice).toMatch(
      /^Summarizing the earlier conversation failed .*oldest messages out instead/,
    );
  });

  it('falls back with a notice when the summarizer fails', async () => {
    const failing: Summarizer = { summarize: () => Promise.reject(new Error('connection refused')) };
    const outcome = await newEngine().compact(gpt4o, planFor(30), failing, signal);
    expect(outcome).toMatchObject({ ok: false, reason: 'the model call failed: connection refused' });
  });

  it('keeps the chunks summarized before a failure, and covers only their messages', async () => {
    const plan = planFor(60, 6_000);
    const summarizer = scripted((_prompt, call) => (call === 0 ? structured('First part [1].') : ''));
    const outcome = await newEngine().compact(gpt4o, plan, summarizer, signal);
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.notice).toMatch(/Only part of the earlier conversation/);
    expect(outcome.ok && outcome.summary.coveredIds).toEqual(chunksOf(plan)[0]!.messageIds);
  });

  it('stops when the signal aborts instead of falling back', async () => {
    const controller = new AbortController();
    const summarizer: Summarizer = {
      summarize: (_prompt, given) => {
        controller.abort();
        return Promise.reject(given.reason as Error);
      },
    };
    await expect(newEngine().compact(gpt4o, planFor(30), summarizer, controller.signal)).rejects.toThrow();
  });
});

describe('planning a compaction', () => {
  it('keeps the latest turn word for word on /compact even when it alone is larger than the tail’s bound', () => {
    // Eight turns whose answers each take more than 40% of a 4k window.
    const history = conversation(8, { user: 20, tool: 0, answer: 1_500 });
    const plan = newEngine().assemble(
      baseInput({ strategy: 'hybrid', window: 4_096, history, compactNow: { focus: 'the Luhmann facts' } }),
    ).compaction;
    expect(plan?.coveredIds).toEqual([...Array(14).keys()].map((index) => index + 1));
  });
});

describe('checking a summary', () => {
  const check = (text: string, source = '{"document": 1} {"document": 2}') =>
    checkSummary(text, { source, replacedTokens: 5_000, maxTokens: 1_000, counter });

  it('accepts a structured summary that cites the conversation’s documents', () => {
    expect(check(structured('Sun [1], water [1, 2].'))).toMatchObject({ ok: true });
  });

  it('rejects citation numbers that match no note in what was summarized', () => {
    expect(check(structured('Sun [7].'))).toEqual({
      ok: false,
      reason: 'the summary cites [7], which no note in the conversation has',
    });
  });

  it('rejects a summary without its sections', () => {
    expect(check('The user likes tomatoes [1].')).toMatchObject({ ok: false, reason: /lacks the sections/ });
  });

  it('cleans a reasoning block, a preamble and a fence from the model’s answer', () => {
    const raw = `<think>Let me think.</think>\nSure! Here is the summary:\n\n${structured('Sun [1].')}`;
    expect(cleanSummary(raw)).toBe(structured('Sun [1].'));
    expect(cleanSummary(`\`\`\`markdown\n${structured('Sun [1].')}\n\`\`\``)).toBe(structured('Sun [1].'));
    expect(cleanSummary('<think>never finished')).toBe('');
  });
});
