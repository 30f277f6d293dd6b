import { describe, expect, it } from 'vitest';
import type { AssembleInput } from '../../../src/main/request/context-types';
import type { LlmMessage } from '../../../src/main/llm/llm-types';
import { baseInput, conversation, filler, gpt4o, newEngine } from './context-fixtures';

function fullInput(overrides: Partial<AssembleInput> = {}): AssembleInput {
  return baseInput({
    tools: [
      { name: 'read_note', description: 'Read a note.', parameters: { type: 'object' } },
      { name: 'search_notes', description: 'Search the vault.', parameters: { type: 'object' } },
    ],
    items: [
      {
        kind: 'rule',
        label: 'Tone',
        path: '_kasten/rules/tone.md',
        include: 'always',
        text: 'Answer briefly.',
      },
      { kind: 'pinned', label: 'Plan', path: 'Plan.md', include: 'manual', text: 'PINNED: the garden plan.' },
      { kind: 'attachment', label: 'seeds.txt', include: 'direct', text: 'ATTACHED: seed list.' },
      {
        kind: 'reference',
        label: 'Garden',
        path: 'Garden.md',
        include: 'direct',
        text: 'LINKED: the garden note.',
      },
      {
        kind: 'reference',
        label: 'Soil',
        path: 'Soil.md',
        include: 'agent',
        score: 0.82,
        text: 'RELEVANT: soil.',
      },
    ],
    history: conversation(3, { user: 20, tool: 50, answer: 30 }),
    summary: { text: '## Goal\nA garden.', coveredIds: [98, 99] },
    turn: [
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 't1', name: 'search_notes', input: { query: 'soil' } }],
      },
      {
        role: 'tool',
        results: [{ id: 't1', name: 'search_notes', output: 'RESULT: soil notes', isError: false }],
      },
    ],
    reminders: ['Cite the documents you use.'],
    ...overrides,
  });
}

const textOf = (message: LlmMessage | undefined) => (message?.role === 'user' ? message.text : '');

describe('the request context', () => {
  it('lists every item with its tokens, and they add up to the estimate exactly', () => {
    const engine = newEngine();
    engine.recordUsage(gpt4o, 1_000, 1_130, true);
    const result = engine.assemble(fullInput());
    const sum = result.items.reduce((total, item) => total + item.tokens, 0);
    expect(sum).toBe(result.estimate.raw);
    expect(Object.values(result.parts).reduce((total, tokens) => total + tokens, 0)).toBe(
      result.estimate.raw,
    );
    expect(result.estimate.ratio).toBeCloseTo(1.13);
    expect(result.estimate.calibrated).toBe(Math.ceil(result.estimate.raw * 1.13));
    expect(result.items.map((item) => [item.kind, item.include, item.label])).toEqual([
      ['system', 'always', 'System prompt'],
      ['rule', 'always', 'Tone'],
      ['tools', 'always', 'read_note'],
      ['tools', 'always', 'search_notes'],
      ['summary', 'history', 'Summary of 2 earlier messages'],
      ['history', 'history', '6 earlier messages'],
      ['pinned', 'manual', 'Plan'],
      ['attachment', 'direct', 'seeds.txt'],
      ['current', 'direct', 'Your message'],
      ['reference', 'direct', 'Garden'],
      ['reference', 'agent', 'Soil'],
      ['tool-results', 'retrieved', 'search_notes'],
      ['system', 'always', 'Reminders'],
    ]);
    expect(result.items.find((item) => item.label === 'Soil')).toMatchObject({
      score: 0.82,
      path: 'Soil.md',
    });
  });

  it('lays the request out in the assembly order, never two user messages in a row', () => {
    const result = newEngine().assemble(fullInput());
    expect(result.system).toBe(`${fullInput().system}\n\nAnswer briefly.`);
    const roles = result.messages.map((message) => message.role);
    roles.forEach((role, index) => {
      if (index > 0 && role === 'user') expect(roles[index - 1]).not.toBe('user');
    });
    expect(textOf(result.messages[0])).toMatch(/^<conversation-summary>[\s\S]*question 0:/);
    const current = result.messages.findIndex((message) => textOf(message).includes('What do my notes say'));
    const text = textOf(result.messages[current]);
    const order = ['PINNED', 'ATTACHED', 'What do my notes say', 'LINKED', 'RELEVANT'].map((marker) =>
      text.indexOf(marker),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(result.messages[current + 1]).toMatchObject({ role: 'assistant' });
    expect(result.messages[current + 2]).toMatchObject({ role: 'tool' });
    expect(textOf(result.messages.at(-1))).toBe(
      '<system-reminder>Cite the documents you use.</system-reminder>',
    );
  });

  it('reports when even what cannot be left out exceeds the window', () => {
    const result = newEngine().assemble(
      baseInput({ window: 2_000, current: { id: 1, text: filler(3_000) } }),
    );
    expect(result.overflow).toEqual({ needed: result.estimate.calibrated, available: result.budget.usable });
    expect(result.notices[0]).toMatch(/needs about [\d,]+ tokens; [\d,]+ are available/);
  });
});
