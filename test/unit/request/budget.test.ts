import { describe, expect, it } from 'vitest';
import { planBudget } from '../../../src/main/request/budget';
import { defaultContextOptions } from '../../../src/main/request/context-options';
import type { ContextItemInput } from '../../../src/main/request/context-types';
import { cutHeadTail } from '../../../src/main/request/fit/head-tail';
import { messageOverhead, TokenCounter } from '../../../src/main/request/count/token-counter';
import { baseInput, filler, gpt4o, newEngine } from './context-fixtures';

const counter = new TokenCounter('o200k_base');

describe('the budget', () => {
  it('is the window less the reserved output and a 5% margin, in provider and local tokens', () => {
    const budget = planBudget(20_000, 1.25, defaultContextOptions);
    // A quarter of the window would be 5,000: the reserved output stops at 4,096.
    expect(budget).toMatchObject({ reservedOutput: 4_096, margin: 1_000, usable: 14_904 });
    expect(budget).toMatchObject({ itemCap: 4_471, pinned: 8_942 }); // 30% and 60% of usable
    expect(budget.raw).toMatchObject({
      usable: 11_923, // 14,904 / 1.25
      itemCap: 3_576, // 30%
      pinned: 7_153, // 60%
      context: 3_576, // tools and context items: 30%
      threshold: 9_538, // 80%
      tail: 4_769, // 40%
    });
  });

  it('keeps a quarter of a small window for the answer', () => {
    expect(planBudget(4_096, 1, defaultContextOptions)).toMatchObject({
      reservedOutput: 1_024,
      margin: 205,
      usable: 2_867,
    });
  });

  it('shrinks for the retry after a context-length error, the reserved output staying', () => {
    const budget = planBudget(10_000, 1, defaultContextOptions, true);
    expect(budget.reservedOutput).toBe(2_500);
    expect(budget.usable).toBe(Math.floor(7_000 * 0.75));
  });

  it('follows the user’s shares: the engine sizes items with its own options and calibration', () => {
    const engine = newEngine({ itemCap: 0.2 });
    engine.recordUsage(gpt4o, 2_000, 2_400, true);
    const budget = engine.budget(gpt4o, 10_000);
    expect(budget).toMatchObject({ usable: 7_000, itemCap: 1_400, ratio: 1.2 });
    expect(budget.raw.itemCap).toBe(Math.floor(1_400 / 1.2));
  });

  it('is the one the assembly plans with: a request’s budget equals the engine’s for its window', () => {
    const engine = newEngine();
    const assembled = engine.assemble(baseInput({ window: 12_000 }));
    expect(assembled.budget).toEqual(engine.budget(gpt4o, 12_000));
  });

  it('is broken down by part, and every part is what its items cost', () => {
    const result = newEngine().assemble(
      baseInput({
        tools: [{ name: 'read_note', description: 'Read a note.', parameters: { type: 'object' } }],
        items: [
          { kind: 'rule', label: 'Tone', include: 'always', text: 'Answer briefly.' },
          { kind: 'pinned', label: 'Plan', path: 'Plan.md', include: 'manual', text: filler(50, 'plan') },
          {
            kind: 'reference',
            label: 'Garden',
            path: 'Garden.md',
            include: 'direct',
            text: filler(80, 'garden'),
          },
        ],
      }),
    );
    for (const kind of ['system', 'tools', 'rule', 'pinned', 'reference', 'current'] as const) {
      expect(result.parts[kind]).toBeGreaterThan(0);
      expect(result.parts[kind]).toBe(
        result.items.filter((item) => item.kind === kind).reduce((sum, item) => sum + item.tokens, 0),
      );
    }
    expect(result.parts.history).toBe(0);
  });
});

describe('head … tail cuts', () => {
  it('keeps the head and the tail around a notice, within the limit', () => {
    const text = `START ${filler(3_000, 'middle')} END`;
    const cut = cutHeadTail(text, 300, counter, (omitted) => `[… ${omitted} tokens omitted; call read_note]`);
    expect(cut.tokens).toBeLessThanOrEqual(300);
    expect(cut.tokens).toBe(counter.text(cut.text));
    expect(cut.text.startsWith('START')).toBe(true);
    expect(cut.text.endsWith('END')).toBe(true);
    expect(cut.text).toMatch(/\[… \d+ tokens omitted; call read_note\]/);
    expect(cut.omitted).toBeGreaterThan(2_500);
  });

  it('leaves a text that fits alone', () => {
    expect(cutHeadTail('short', 10, counter, () => 'never')).toEqual({
      text: 'short',
      tokens: 1,
      omitted: 0,
    });
  });
});

describe('the item cap', () => {
  const window = 12_143; // usable 8,500; cap 2,550
  const huge = `HEAD ${filler(6_000, 'body')} TAIL`;

  it('cuts a pinned note larger than 60% of the usable window, given no passages, to head … tail with the caller’s notice', () => {
    const engine = newEngine({
      cutNotice: (omitted, source) =>
        `[… ${omitted.toLocaleString('en-US')} tokens omitted; call read_note with "${source.path}" to read the rest]`,
    });
    const pinned: ContextItemInput = {
      kind: 'pinned',
      label: 'Huge',
      path: 'Huge.md',
      include: 'manual',
      text: huge,
    };
    const result = engine.assemble(baseInput({ window, items: [pinned] }));
    const item = result.items.find((entry) => entry.kind === 'pinned')!;
    expect(item.form).toBe('cut');
    // Pinned notes may take 60% of the usable window; the message overhead comes on top.
    expect(item.tokens).toBeLessThanOrEqual(Math.floor(result.budget.raw.usable * 0.6) + messageOverhead);
    expect(item.tokens).toBeGreaterThan(result.budget.raw.itemCap);
    const sent = result.messages.at(-1)!;
    expect(sent.role).toBe('user');
    expect(sent.role === 'user' && sent.text).toMatch(
      /HEAD[\s\S]*call read_note with "Huge.md" to read the rest\][\s\S]*TAIL/,
    );
  });

  it('cuts a tool result of this turn larger than 30% of the usable window', () => {
    const result = newEngine().assemble(
      baseInput({
        window,
        turn: [
          {
            role: 'assistant',
            text: '',
            toolCalls: [{ id: 'c1', name: 'read_note', input: { note: 'Huge' } }],
          },
          { role: 'tool', results: [{ id: 'c1', name: 'read_note', output: huge, isError: false }] },
        ],
      }),
    );
    const item = result.items.find((entry) => entry.kind === 'tool-results')!;
    expect(item.form).toBe('cut');
    expect(item.tokens).toBeLessThan(result.budget.raw.itemCap + 50);
    const tool = result.messages.find((message) => message.role === 'tool')!;
    expect(tool.role === 'tool' && tool.results[0]!.output).toMatch(/tokens omitted; call read_note again/);
  });

  it('leaves out retrieved notes that do not fit the context share, best score first', () => {
    const note = (label: string, score: number): ContextItemInput => ({
      kind: 'reference',
      label,
      include: 'retrieved',
      score,
      text: filler(1_500, label),
    });
    const result = newEngine().assemble(baseInput({ window, items: [note('low', 0.4), note('high', 0.9)] }));
    expect(result.items.filter((entry) => entry.kind === 'reference').map((entry) => entry.label)).toEqual([
      'high',
    ]);
    expect(result.dropped).toMatchObject([{ label: 'low', include: 'retrieved', score: 0.4 }]);
  });
});
