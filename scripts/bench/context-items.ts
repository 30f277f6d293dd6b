// Deciding an answer's context items in a vault with 500 rules (a third each always, manual, agent) and
// the vault's tools: reading and parsing the rules the first time, then each answer's decision (rules
// from the cache, agent rules and tools matched to the question by words), in process. The files are
// served from memory: what is measured is Kasten's work, not the disk.
import { registerSourceHooks } from './source-hooks.ts';

export interface ItemFigures {
  rules: number;
  /** The first answer: every rule read, parsed, counted and cut into passages. */
  firstMs: number;
  /** Later answers: the catalog's cache, and the question matched against the agent items. */
  answerMs: number[];
}

const topics = (
  'citation style tone structure gardening compost tomatoes recipes baking bread sourdough travel packing ' +
  'budget invoices taxes fitness running knees sleep coding reviews testing python rust typescript poetry ' +
  'meter rhyme history rome empire music chords guitar photography light lenses astronomy telescopes'
).split(' ');

const questions = [
  'How should I format the citations in my thesis?',
  'What goes into a sourdough starter and how long does it take?',
  'Which lens is best for photographing stars?',
  'Remind me how the Roman empire split.',
  'What did I write about running with bad knees?',
];

export async function measureContextItems(count = 500, rounds = 20): Promise<ItemFigures> {
  registerSourceHooks();
  const { ItemService } = await import('../../src/main/items/item-service.ts');
  const { RulesCatalog } = await import('../../src/main/items/rules-catalog.ts');
  const { ToolRegistry } = await import('../../src/main/tools/tool-registry.ts');
  const { builtInTools } = await import('../../src/main/tools/built-in-tools.ts');
  const { TokenCounter } = await import('../../src/main/request/count/token-counter.ts');
  const counter = new TokenCounter('o200k_base');
  const includes = ['always', 'manual', 'agent'] as const;
  const files = new Map<string, string>();
  for (let index = 0; index < count; index++) {
    const topic = (offset: number) => topics[(index * 7 + offset) % topics.length]!;
    const body = Array.from({ length: 12 }, (_, line) => `Prefer ${topic(line)} over ${topic(line + 3)}.`);
    files.set(
      `_kasten/rules/Rule ${index}.md`,
      `---\ninclude: ${includes[index % 3]}\ndescription: About ${topic(0)}, ${topic(1)} and ${topic(2)}\n---\n${body.join('\n')}\n`,
    );
  }
  const notes = [...files.keys()].map((path, index) => ({
    path,
    title: `Rule ${index}`,
    hash: String(index),
    lead: '',
    words: 100,
  }));
  const items = new ItemService({
    settings: {
      get: () => ({
        rulesFolder: '_kasten/rules',
        agentPrompt: '',
        agentPromptPlacement: 'message',
        tools: {},
      }),
    } as never,
    sessions: { list: () => [], agentPrompt: () => null } as never,
    attachments: { ofSession: () => [] } as never,
    rules: new RulesCatalog({
      notesUnder: () => notes,
      readNote: async (path: string) => ({ content: files.get(path)! }),
    }),
    index: { note: () => null },
    readNote: async (path: string) => ({ content: files.get(path) ?? '' }),
    registry: new ToolRegistry(builtInTools),
    mcp: null,
    vectors: null,
    tokens: (text) => counter.text(text),
  });
  const answer = (question: string) =>
    items.forAnswer({
      sessionId: 's',
      question,
      pinnedLimit: 10_000,
      numbers: () => 1,
      signal: new AbortController().signal,
    });
  let started = performance.now();
  await answer(questions[0]!);
  const firstMs = performance.now() - started;
  const answerMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const question of questions) {
      started = performance.now();
      await answer(question);
      answerMs.push(performance.now() - started);
    }
  }
  return { rules: count, firstMs, answerMs };
}
