import { describe, expect, it } from 'vitest';
import type { ContextStrategy } from '../../../src/shared/context-domain';
import type { ContextItemInput, OfferedTool, SentItem } from '../../../src/main/request/context-types';
import { TokenCounter } from '../../../src/main/request/count/token-counter';
import { baseInput, conversation, filler, gpt4o, newEngine } from './context-fixtures';

const counter = new TokenCounter('o200k_base');
const window = 12_143; // usable 8,500; one item may take 2,550

/** A linked note as the message's sources give it: whole, its summary, its title. */
function linked(title: string, tokens: number, summaryTokens = 40): ContextItemInput {
  const path = `${title}.md`;
  return {
    kind: 'reference',
    label: title,
    path,
    include: 'direct',
    text: JSON.stringify({ document: 1, title, path, content: `HEAD ${filler(tokens, 'body')} TAIL` }),
    fallback: JSON.stringify({ document: 1, title, path, summary: filler(summaryTokens, 'summary') }),
    stub: JSON.stringify({ document: 1, title, path, note: 'call read_note to read this note' }),
    readHint: `call read_note with "${path}"`,
  };
}

/** The question, sized so that about `room` local tokens are left for the notes it links. */
function questionLeaving(room: number) {
  const usable = newEngine().budget(gpt4o, window).raw.usable;
  const system = counter.text(baseInput().system as string);
  return { id: 10_000, text: `Question: ${filler(usable - system - 15 - room)}` };
}

const noteOf = (result: ReturnType<ReturnType<typeof newEngine>['assemble']>) =>
  result.items.find((item) => item.kind === 'reference')!;

describe('a note linked in the message', () => {
  it('goes whole while it fits its share, with no reason to give', () => {
    const result = newEngine().assemble(baseInput({ window, items: [linked('Garden', 1_000)] }));
    expect(noteOf(result)).toMatchObject({ form: 'whole' });
    expect(noteOf(result).reason).toBeUndefined();
    expect(JSON.stringify(result.messages)).toContain('TAIL');
  });

  it('too big for its share is cut to its head and tail within it, and says so', () => {
    const result = newEngine().assemble(baseInput({ window, items: [linked('Archive', 6_000)] }));
    const note = noteOf(result);
    expect(note.form).toBe('cut');
    expect(note.tokens).toBeLessThanOrEqual(result.budget.raw.itemCap + 10);
    expect(note.tokens).toBeGreaterThan(result.budget.raw.itemCap * 0.9);
    expect(note.reason).toMatch(
      /^cut to head and tail: 6,0\d\d tokens, 2,550 available \(the most one item may take\)$/,
    );
    const sent = JSON.stringify(result.messages.at(-1));
    expect(sent).toMatch(/HEAD.*tokens omitted; call read_note with \\"Archive.md\\".*TAIL/);
  });

  it('given less room than a head and tail is worth, goes as its summary, and says why', () => {
    const result = newEngine().assemble(
      baseInput({ window, current: questionLeaving(150), items: [linked('Archive', 6_000)] }),
    );
    const note = noteOf(result);
    expect(note.form).toBe('fallback');
    expect(note.reason).toMatch(
      /^summary only: 6,0\d\d tokens, 1\d\d available for the notes named in this message, too little for its head and tail$/,
    );
    expect(JSON.stringify(result.messages.at(-1))).toContain('summary lorem');
    expect(result.overflow).toBeNull();
  });

  it('given less room than its summary takes, goes as its title with how to read it', () => {
    const result = newEngine().assemble(
      baseInput({ window, current: questionLeaving(60), items: [linked('Archive', 6_000, 400)] }),
    );
    const note = noteOf(result);
    expect(note.form).toBe('title');
    expect(note.reason).toMatch(/^title only: 6,0\d\d tokens, \d\d available .*too little for its summary$/);
    expect(JSON.stringify(result.messages.at(-1))).toContain('call read_note to read this note');
    expect(result.overflow).toBeNull();
  });

  it('shares the room with the other notes of the message: those that fit an equal share are whole', () => {
    const notes = [linked('Small', 300), linked('Big one', 6_000), linked('Big two', 6_000)];
    const result = newEngine().assemble(baseInput({ window, current: questionLeaving(3_300), items: notes }));
    const forms = result.items
      .filter((item) => item.kind === 'reference')
      .map((item) => [item.label, item.form]);
    expect(forms).toEqual([
      ['Small', 'whole'],
      ['Big one', 'cut'],
      ['Big two', 'cut'],
    ]);
    const [, one, two] = result.items.filter((item) => item.kind === 'reference');
    // What the small note leaves is divided between the two big ones.
    expect(Math.abs(one!.tokens - two!.tokens)).toBeLessThan(one!.tokens * 0.1);
    expect(one!.reason).toMatch(/available for the notes named in this message$/);
    expect(result.estimate.raw).toBeLessThanOrEqual(result.budget.raw.usable);
  });

  it('as the answer’s first request sent it, is sent so again by its later requests, reason and all', () => {
    const note = linked('Archive', 6_000);
    const engine = newEngine();
    const first = engine.assemble(baseInput({ window, items: [note] }));
    const placed = first.references[0]!;
    const sent = new Map<ContextItemInput, SentItem>([
      [note, { text: placed.text, form: placed.form, reason: placed.reason }],
    ]);
    // A later step: the turn's tool results take room the first request had.
    const turn = [
      {
        role: 'assistant' as const,
        text: '',
        toolCalls: [{ id: 'c1', name: 'read_note', input: { note: 'Other' } }],
      },
      {
        role: 'tool' as const,
        results: [{ id: 'c1', name: 'read_note', output: filler(2_000, 'other'), isError: false }],
      },
    ];
    const later = engine.assemble(baseInput({ window, items: [note], turn, sent }));
    expect(later.references[0]!.text).toBe(placed.text);
    expect(noteOf(later)).toMatchObject({ form: 'cut', reason: noteOf(first).reason });
  });
});

describe('older history gives way to the notes named in the message', () => {
  // Kasten's own tools fill the share for tools, rules and notes: the linked note must not depend on it.
  const tools: OfferedTool[] = Array.from({ length: 12 }, (_, index) => ({
    name: `tool_${index}`,
    description: filler(220, `tool ${index}:`),
    parameters: { type: 'object', properties: {} },
  }));
  const history = conversation(30, { user: 80, tool: 0, answer: 320 });

  it.each<ContextStrategy>(['discard', 'summarize', 'hybrid'])(
    '%s: the note is cut to its item cap, not summarized, and older turns are left out or compacted',
    (strategy) => {
      const engine = newEngine();
      const without = engine.assemble(baseInput({ window, strategy, tools, history }));
      const result = engine.assemble(
        baseInput({ window, strategy, tools, history, items: [linked('Archive', 6_000)] }),
      );
      const note = noteOf(result);
      expect(note.form).toBe('cut');
      expect(note.tokens).toBeGreaterThan(result.budget.raw.itemCap * 0.9);
      // The older turns make the room: fewer are sent than without the note.
      expect(result.history.sentIds.length).toBeLessThan(without.history.sentIds.length);
      expect(result.history.omittedIds.length).toBeGreaterThan(0);
      if (strategy !== 'discard') expect(result.compaction).not.toBeNull();
      expect(result.estimate.raw).toBeLessThanOrEqual(result.budget.raw.usable);
      // The current turn is there whole.
      expect(result.items.find((item) => item.kind === 'current')!.form).toBe('whole');
    },
  );
});
