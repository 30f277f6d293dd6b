import { describe, expect, it } from 'vitest';
import { MeterPlans } from '../../../src/main/request/meter-plans';
import type { AssembleInput, ContextItemInput } from '../../../src/main/request/context-types';
import { recordOf } from '../../../src/main/request/record/request-record';
import type { PreviewPlan } from '../../../src/main/request/request-planner';
import { random as seededRandom } from '../../support/synthetic-vault';
import { conversation, filler, gpt4o, newEngine } from './context-fixtures';

const engine = newEngine();
const words = 'the notes link ideas across folders while each card keeps one thought'.split(' ');

/** The meter's view of a request planned from `input` with the words typed as its question. */
function planning(input: Omit<AssembleInput, 'current'>) {
  const calibration = engine.calibration(gpt4o);
  let plans = 0;
  const plan = (typed: string): PreviewPlan => {
    plans++;
    const assembled = engine.assemble({ ...input, current: { id: 100_000, text: typed } });
    const strategy = input.strategy ?? 'hybrid';
    return {
      assembled,
      record: (request) => recordOf(request, 0, strategy, false, request.notices, calibration),
    };
  };
  return { plan, plans: () => plans };
}

const meter = () => new MeterPlans((typed) => engine.estimate(gpt4o, typed).raw);

/** A draft written `step` words at a time up to `length` words, then deleted the same way: each state. */
function typing(length: number, step: (index: number) => number): string[] {
  const drafts: string[] = [];
  let count = 0;
  for (let index = 0; count < length; index++) {
    count = Math.min(length, count + step(index));
    drafts.push(Array.from({ length: count }, (_, at) => words[(at * 7) % words.length]).join(' '));
  }
  return [...drafts, ...drafts.slice(0, -1).reverse(), ''];
}

/** A linked note, as a draft's [[link]] gives it: whole while it fits, else its summary. */
const linked: ContextItemInput = {
  kind: 'reference',
  label: 'Gardening',
  path: 'Gardening.md',
  include: 'direct',
  text: filler(900, '{"document": 1, "content": "'),
  fallback: filler(60, '{"document": 1, "summary": "'),
};

/** Chats, and how many words the draft grows to in each: past every change of plan, into overflow. */
const chats: [string, Omit<AssembleInput, 'current'>, number][] = [
  [
    'a long chat cut to a small window (discard)',
    {
      model: gpt4o,
      window: 6_000,
      strategy: 'discard',
      system: 'You are Kasten.',
      history: conversation(60, { user: 60, tool: 0, answer: 200 }),
      previousCut: { firstId: 81, maskedBefore: null },
    },
    2_400,
  ],
  [
    'old tool results masked past the threshold (hybrid)',
    {
      model: gpt4o,
      window: 20_000,
      strategy: 'hybrid',
      system: 'You are Kasten.',
      history: conversation(24, { user: 40, tool: 500, answer: 80 }),
    },
    2_400,
  ],
  [
    'a rule, a pinned note, a linked note and a tool that stop fitting as the words grow',
    {
      model: gpt4o,
      window: 6_000,
      strategy: 'hybrid',
      system: 'You are Kasten.',
      history: conversation(12, { user: 60, tool: 0, answer: 150 }),
      items: [
        { kind: 'rule', label: 'Style', include: 'always', text: filler(300, 'Write plainly.') },
        { kind: 'pinned', label: 'Plan', path: 'Plan.md', include: 'manual', text: filler(900, 'Plan') },
        linked,
      ],
      tools: [
        { name: 'search_web', description: 'Searches the web.', parameters: {}, optional: true },
        { name: 'fetch_page', description: filler(400, 'Fetches.'), parameters: {}, optional: true },
      ],
    },
    4_000,
  ],
];

describe('the context meter counts a draft against the plans it has', () => {
  it.each(chats)(
    'typed and deleted word by word, every reading equals a full plan: %s',
    { timeout: 20_000 },
    (_name, input, length) => {
      const counted = planning(input);
      const planned = planning(input);
      const plans = meter();
      const drafts = typing(length, (index) => 1 + (index % 11));
      for (const draft of drafts) {
        const reading = plans.request('chat', draft, counted.plan);
        const full = planned.plan(draft);
        expect(reading, `${draft.split(' ').length} words`).toEqual(full.record(full.assembled));
      }
      // Most keystrokes were counted, not planned — unless items are cut to the room the words leave
      // (a linked note takes what the fixed parts leave, so while it is cut each keystroke is planned).
      if (!input.items) expect(counted.plans()).toBeLessThan(drafts.length / 2);
      else expect(counted.plans()).toBeLessThanOrEqual(drafts.length);
    },
  );

  it('typing in a long chat plans the request once, then counts the words', () => {
    const counted = planning({
      model: gpt4o,
      window: 128_000,
      system: 'You are Kasten.',
      history: conversation(2_500, { user: 30, tool: 0, answer: 120 }),
    });
    const plans = meter();
    let draft = '';
    const keystrokes = 'What do my notes say about linking ideas across folders, and why?';
    plans.request('chat', draft, counted.plan);
    expect(counted.plans()).toBe(1);
    for (const key of keystrokes) {
      draft += key;
      plans.request('chat', draft, counted.plan);
    }
    // The second keystroke plans again and a little further on; the rest are counted.
    expect(counted.plans()).toBe(3);
  });

  it('plans again once anything besides the words changed', () => {
    const input = {
      model: gpt4o,
      window: 16_000,
      system: 'You are Kasten.',
      history: conversation(20, { user: 30, tool: 0, answer: 120 }),
    };
    const counted = planning(input);
    const plans = meter();
    plans.request('chat', 'What about', counted.plan);
    plans.request('chat', 'What about links', counted.plan);
    const before = counted.plans();
    // A note linked in the draft, a pinned note, a new message: other sources, another key.
    const withNote = planning({ ...input, items: [linked] });
    const reading = plans.request('chat + Gardening', 'What about links', withNote.plan);
    expect(counted.plans() + withNote.plans()).toBe(before + 1);
    const full = planning({ ...input, items: [linked] }).plan('What about links');
    expect(reading).toEqual(full.record(full.assembled));
  });

  it(
    'in random chats, typed and deleted at random, every reading equals a full plan',
    { timeout: 30_000 },
    () => {
      for (let seed = 1; seed <= 12; seed++) {
        const random = seededRandom(seed);
        const input = randomChat(random);
        const counted = planning(input);
        const planned = planning(input);
        const plans = meter();
        let count = 0;
        const most = 200 + Math.floor(random() * input.window * 0.8);
        for (let step = 0; step < 100; step++) {
          count += random() < 0.75 ? Math.floor(random() * 13) : -Math.floor(1 + random() * 30);
          if (random() < 0.02) count = Math.floor(random() * most);
          count = Math.max(0, Math.min(most, count));
          const draft = Array.from({ length: count }, (_, at) => words[(at * 7) % words.length]).join(' ');
          const full = planned.plan(draft);
          expect(plans.request('chat', draft, counted.plan), `seed ${seed}, step ${step}`).toEqual(
            full.record(full.assembled),
          );
        }
      }
    },
  );
});

/** A chat of any strategy and window, with or without a summary, earlier cut, rules, pins, file, tools. */
function randomChat(random: () => number): Omit<AssembleInput, 'current'> {
  const between = (least: number, most: number) => least + Math.floor(random() * (most - least + 1));
  const maybe = <T>(chance: number, value: () => T): T[] => (random() < chance ? [value()] : []);
  const turns = between(0, 60);
  const history = conversation(turns, () => ({
    user: between(10, 200),
    tool: random() < 0.4 ? between(50, 1_500) : 0,
    answer: between(20, 400),
  }));
  const turnStart = () => 2 * between(1, turns - 1) + 1;
  const items: ContextItemInput[] = [
    ...maybe(0.5, () => ({
      kind: 'rule' as const,
      label: 'Style',
      include: 'always' as const,
      text: filler(between(50, 1_500), 'rule'),
    })),
    ...maybe(0.5, () => ({
      kind: 'rule' as const,
      label: 'Agent',
      include: 'agent' as const,
      score: random(),
      text: filler(between(50, 800), 'agent'),
      fallback: filler(20, 'stand-in'),
    })),
    ...maybe(0.5, () => ({
      kind: 'pinned' as const,
      label: 'Plan',
      path: 'Plan.md',
      include: 'manual' as const,
      text: filler(between(100, 3_000), 'pinned'),
      ...(random() < 0.5
        ? {
            passages: Array.from({ length: 8 }, (_, position) => ({
              text: filler(between(20, 300), `passage ${position}`),
              score: random(),
              position,
              heading: 'Plan',
            })),
            excerpt: (chosen: readonly { text: string }[]) =>
              chosen.map((passage) => passage.text).join('\n'),
          }
        : {}),
    })),
    ...maybe(0.5, () => ({ ...linked, text: filler(between(100, 3_000), 'linked') })),
    ...maybe(0.4, () => ({
      kind: 'attachment' as const,
      label: 'notes.txt',
      include: 'manual' as const,
      text: filler(between(100, 3_000), 'file'),
      fallback: filler(30, 'stub'),
    })),
  ];
  const tools = Array.from({ length: between(0, 4) }, (_, index) => ({
    name: `tool_${index}`,
    description: filler(between(10, 600), 'Does things.'),
    parameters: {},
    optional: random() < 0.7,
  }));
  return {
    model: gpt4o,
    window: between(3_000, 30_000),
    strategy: (['hybrid', 'discard', 'summarize'] as const)[between(0, 2)],
    system: 'You are Kasten.',
    history,
    items,
    tools,
    summary:
      turns > 4 && random() < 0.3
        ? { text: filler(between(50, 1_500), 'summary'), coveredIds: [1, 2, 3, 4] }
        : null,
    previousCut:
      turns > 4 && random() < 0.4
        ? { firstId: turnStart(), maskedBefore: random() < 0.3 ? turnStart() : null }
        : null,
  };
}
