import { describe, expect, it } from 'vitest';
import type { ContextItemInput, NotePassage } from '../../../src/main/request/context-types';
import { baseInput, conversation, filler, newEngine } from '../request/context-fixtures';

const rule = (index: number, include: 'always' | 'manual' | 'agent', tokens: number, score?: number) =>
  ({
    kind: 'rule',
    label: `Rule ${index}`,
    path: `_kasten/rules/Rule ${index}.md`,
    include,
    score,
    text: filler(tokens, `rule ${index}:`),
  }) satisfies ContextItemInput;

function pinnedWithPassages(count: number, tokensEach: number): ContextItemInput {
  const passages: NotePassage[] = Array.from({ length: count }, (_, position) => ({
    text: filler(tokensEach, `passage ${position}:`),
    // Passages 3 and 7 are about the question.
    score: position === 3 ? 0.9 : position === 7 ? 0.8 : 0.1,
    position,
    heading: `Section ${position}`,
  }));
  return {
    kind: 'pinned',
    label: 'Big note',
    path: 'Big note.md',
    include: 'manual',
    text: passages.map((passage) => passage.text).join('\n'),
    passages,
    excerpt: (chosen) =>
      JSON.stringify({ title: 'Big note', passages: chosen.map((passage) => passage.text) }),
  };
}

describe('context items within the budget', () => {
  it('never lets 500 always-rules push a request past the usable window: those past the share are left out, each with why', () => {
    const rules = Array.from({ length: 500 }, (_, index) => rule(index, 'always', 200));
    const result = newEngine().assemble(baseInput({ window: 16_000, items: rules }));
    expect(result.overflow).toBeNull();
    expect(result.estimate.raw).toBeLessThanOrEqual(result.budget.raw.usable);
    const placed = result.items.filter((item) => item.kind === 'rule');
    expect(placed.length).toBeGreaterThan(5);
    const ruleTokens = placed.reduce((sum, item) => sum + item.tokens, 0);
    expect(ruleTokens).toBeLessThanOrEqual(result.budget.raw.context);
    expect(result.dropped).toHaveLength(500 - placed.length);
    expect(result.dropped[0]!.reason).toMatch(/over budget/);
  });

  it('gives a pinned note larger than 60% of usable as its passages most relevant to the question, in the note’s order', () => {
    const result = newEngine().assemble(baseInput({ window: 16_000, items: [pinnedWithPassages(40, 300)] }));
    const item = result.items.find((entry) => entry.kind === 'pinned')!;
    expect(item.form).toBe('chunks');
    expect(item.tokens).toBeLessThanOrEqual(Math.floor(result.budget.raw.usable * 0.6) + 10);
    const text = JSON.stringify(result.messages);
    expect(text).toContain('passage 3:');
    expect(text).toContain('passage 7:');
    expect(text.indexOf('passage 3:')).toBeLessThan(text.indexOf('passage 7:'));
    expect(result.overflow).toBeNull();
  });

  it('gives a pinned note whole while it fits 60% of usable, more than one item may take', () => {
    const note = pinnedWithPassages(20, 300);
    const result = newEngine().assemble(baseInput({ window: 16_000, items: [note] }));
    const item = result.items.find((entry) => entry.kind === 'pinned')!;
    expect(item.form).toBe('whole');
    expect(item.tokens).toBeGreaterThan(result.budget.raw.itemCap);
  });

  it('offers tools chosen for relevance best score first while the share has room, recording the rest as over budget', () => {
    const tool = (name: string, score: number, words: number): ContextItemInput => ({
      kind: 'tools',
      label: name,
      include: 'agent',
      score,
      text: '',
      tool: { name, description: filler(words, `${name}:`), parameters: { type: 'object' } },
    });
    const result = newEngine().assemble(
      baseInput({
        window: 8_000,
        items: [tool('small_low', 0.2, 50), tool('huge', 0.9, 3_000), tool('small_high', 0.8, 50)],
        system: (names) => `Tools this turn: ${names.join(', ')}`,
      }),
    );
    const tools = result.items
      .filter((item) => item.kind === 'tools')
      .map((item) => [item.label, item.score]);
    expect(tools).toEqual([
      ['small_high', 0.8],
      ['small_low', 0.2],
    ]);
    expect(result.dropped.map((item) => [item.label, item.reason])).toEqual([
      ['huge', expect.stringMatching(/over budget/)],
    ]);
    // The system prompt is written for the tools the request holds.
    expect(result.system).toBe('Tools this turn: small_high, small_low');
  });

  it('lays a request out as system, summary, history, agent prompt, pinned, attachment, question, references', () => {
    const result = newEngine().assemble(
      baseInput({
        system: 'SYSTEM-MARK You are Kasten.',
        summary: { text: 'SUMMARY-MARK', coveredIds: [1] },
        history: conversation(3, { user: 20, tool: 0, answer: 20 }).filter((entry) => entry.id > 2),
        agentPrompt: 'AGENT-MARK answer in French',
        items: [
          { kind: 'reference', label: 'Ref', path: 'Ref.md', include: 'direct', text: 'REFERENCE-MARK' },
          { kind: 'attachment', label: 'a.pdf', include: 'manual', text: 'ATTACHMENT-MARK' },
          { kind: 'pinned', label: 'Pin', path: 'Pin.md', include: 'manual', text: 'PINNED-MARK' },
        ],
        current: { id: 100, text: 'QUESTION-MARK' },
        reminders: ['REMINDER-MARK'],
      }),
    );
    // The system prompt is sent ahead of the messages, as its own field.
    const text = JSON.stringify([result.system, ...result.messages]);
    const order = [
      'SYSTEM-MARK',
      'SUMMARY-MARK',
      'question 1:',
      'answer 2:',
      'AGENT-MARK',
      'PINNED-MARK',
      'ATTACHMENT-MARK',
    ];
    const marks = [...order, 'QUESTION-MARK', 'REFERENCE-MARK', 'REMINDER-MARK'];
    const positions = marks.map((mark) => text.indexOf(mark));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(result.items.map((item) => item.kind)).toContain('agent-prompt');
  });

  it('keeps an earlier message’s attachment whole while it fits, and sends its stub once it is larger than an item may be', () => {
    const history = conversation(2, { user: 10, tool: 0, answer: 10 }).map((entry) =>
      entry.id === 1
        ? {
            ...entry,
            attachments: [{ text: `FILE-WHOLE ${filler(200)}`, stub: 'FILE-STUB call read_attachment 1' }],
          }
        : entry.id === 3
          ? {
              ...entry,
              attachments: [{ text: `BIG-WHOLE ${filler(9_000)}`, stub: 'BIG-STUB read_attachment 2' }],
            }
          : entry,
    );
    const result = newEngine().assemble(baseInput({ window: 32_000, history }));
    const text = JSON.stringify(result.messages);
    expect(text).toContain('FILE-WHOLE');
    expect(text).not.toContain('FILE-STUB');
    expect(text).toContain('BIG-STUB');
    expect(text).not.toContain('BIG-WHOLE');
    expect(text.indexOf('FILE-WHOLE')).toBeLessThan(text.indexOf('question 0:'));
  });
});
