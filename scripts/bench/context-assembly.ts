// The context engine's work per turn, in a long session: turning the stored messages into the
// conversation as the model is sent it, then assembling the request (counting what is new, fitting it
// to the window by the session's strategy, recording every item). Also: counting one 2 KB message the
// first time (no cache).
import type { ChatMessage } from '../../src/shared/chat-domain.ts';
import { registerSourceHooks } from './source-hooks.ts';
import { random } from './seeded-random.ts';

export interface ContextFigures {
  /** Counting a 2 KB message never seen before, ms per message. */
  countMs: number[];
  lengths: { messages: number; window: number; turnMs: number[] }[];
}

const vocabulary = (
  'note idea link card index folder structure method slip box thought writing reading source quote claim ' +
  'argument question answer context summary permanent fleeting literature atomic review tag backlink graph'
).split(' ');

/** A session of `count` messages as the database gives it: questions, answers, every fourth with a search. */
export function storedSession(count: number, next: () => number): ChatMessage[] {
  const words = (n: number) =>
    Array.from({ length: n }, () => vocabulary[Math.floor(next() * vocabulary.length)]);
  const at = new Date(0).toISOString();
  const base = {
    sessionId: 's',
    model: null,
    error: null,
    usage: null,
    references: [],
    requests: [],
    createdAt: at,
    updatedAt: at,
  };
  return Array.from({ length: count }, (_, id): ChatMessage => {
    if (id % 2 === 0) {
      return {
        ...base,
        id,
        role: 'user',
        status: 'complete',
        parts: [{ type: 'text', step: 0, text: words(30).join(' ') }],
      };
    }
    const searched = id % 8 === 1;
    return {
      ...base,
      id,
      role: 'assistant',
      status: 'complete',
      parts: [
        ...(searched
          ? [
              {
                type: 'tool-call' as const,
                step: 0,
                id: `c${id}`,
                name: 'search_notes',
                args: { query: 'links' },
                ok: true,
                output: words(300).join(' '),
              },
            ]
          : []),
        { type: 'text', step: searched ? 1 : 0, text: `${words(120).join(' ')} [1].` },
      ],
    };
  });
}

export async function measureContextAssembly(
  turns = Number(process.env.BENCH_CONTEXT_TURNS ?? 60),
  lengths = [500, 5000],
): Promise<ContextFigures> {
  registerSourceHooks();
  const [
    { ContextEngine },
    { MemoryCalibrationStore },
    { conversationOf },
    { toolSchemasOf },
    { vaultTools },
  ] = await Promise.all([
    import('../../src/main/request/context-engine.ts'),
    import('../../src/main/request/count/calibration.ts'),
    import('../../src/main/request/history/conversation.ts'),
    import('../../src/main/request/sources/tool-schemas.ts'),
    import('../../src/main/chat/vault-tools.ts'),
  ]);
  const next = random(7);
  const profile = { key: 'bench', model: 'llama3.1' };
  const engine = new ContextEngine({ calibrations: new MemoryCalibrationStore() });

  // Distinct 2 KB messages, so that none is cached.
  const texts = Array.from({ length: 400 }, () => {
    let text = '';
    while (text.length < 2048) text += `${vocabulary[Math.floor(next() * vocabulary.length)]} `;
    return text.slice(0, 2048);
  });
  engine.estimate(profile, 'warm up the encoding');
  const countMs = texts.map((text) => {
    const started = performance.now();
    engine.estimate(profile, text);
    return performance.now() - started;
  });

  const figures: ContextFigures = { countMs, lengths: [] };
  for (const count of lengths) {
    for (const window of [8192, 131072]) {
      const stored = storedSession(count + turns * 2, next);
      const turnMs: number[] = [];
      for (let turn = -3; turn < turns; turn++) {
        // Each turn reads the session anew (new objects, as from SQLite) with one more question and answer.
        const messages = structuredClone(stored.slice(0, count + Math.max(0, turn) * 2 + 1));
        const question = messages.pop()!;
        const started = performance.now();
        engine.assemble({
          model: profile,
          window,
          strategy: 'hybrid',
          system: 'You are Kasten.',
          tools: toolSchemasOf(vaultTools),
          history: conversationOf(messages),
          current: { id: question.id, text: (question.parts[0] as { text: string }).text },
        });
        // The first turns fill the count cache, as the first answers of a session do.
        if (turn >= 0) turnMs.push(performance.now() - started);
      }
      figures.lengths.push({ messages: count, window, turnMs });
    }
  }
  return figures;
}
