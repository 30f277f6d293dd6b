// The context meter in a long chat, through the contract's handler as a host calls it: its reading after
// one keystroke, and after a new message (the session read again and planned). Then the bytes sent to
// the renderer while a 2,000-word answer streams from the scripted model server: the whole message and
// its requests at every announcement (before deltas) against what is sent now.
//
// The app is the one src/main/app.ts composes, run from src/ in this process (see source-hooks.ts). The
// stored chat is written straight into the database before the app opens it: the questions and answers
// of context-assembly.ts, without request records (a real chat has one per answer).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerSourceHooks } from './source-hooks.ts';
import { storedSession } from './context-assembly.ts';
import { random } from './seeded-random.ts';

export interface MeterFigures {
  messages: number;
  window: number;
  /** The reading after one more character of the question, ms per keystroke. */
  keystrokeMs: number[];
  /** The reading after a question and its answer were added to the chat, ms. */
  newMessageMs: number[];
}

export interface StreamBytes {
  /** Messages in the chat before the question. */
  messages: number;
  announcements: number;
  /** Bytes of the `chat:message` and `chat:delta` frames sent for the answer. */
  sent: number;
  /** Bytes had each announcement been the whole message with its requests. */
  whole: number;
}

const repoRoot = join(import.meta.dirname, '..', '..');

async function loadSources() {
  registerSourceHooks();
  const [app, database, store, server, streamed] = await Promise.all([
    import('../../src/main/app.ts'),
    import('../../src/main/storage/app-database.ts'),
    import('../../src/main/chat/chat-store.ts'),
    import('../../test/support/scripted-model-server.ts'),
    import('../../test/support/streamed-answer.ts'),
  ]);
  return { ...app, ...database, ...store, ...server, ...streamed };
}

type Sources = Awaited<ReturnType<typeof loadSources>>;

/** A chat of `count` messages written into the app database at `dataDir`: its session id. */
function storeChat(sources: Sources, dataDir: string, vault: string, count: number): string {
  const db = sources.openAppDatabase(dataDir);
  try {
    const store = new sources.ChatStore(db);
    const session = store.createSession(vault, 'bench');
    db.transaction(() => {
      for (const { role, parts, status, model } of storedSession(count, random(11))) {
        store.addMessage(session.id, { role, parts, status, model });
      }
    })();
    return session.id;
  } finally {
    db.close();
  }
}

/** The app on a copy of the sample vault, with `messages` stored in one chat, on the scripted server. */
async function benchApp(sources: Sources, serverUrl: string, messages: number, window: number) {
  const base = mkdtempSync(join(tmpdir(), 'kasten-bench-meter-'));
  const vault = join(base, 'vault');
  const dataDir = join(base, 'data');
  cpSync(join(repoRoot, 'resources', 'sample-vault'), vault, { recursive: true });
  const sessionId = storeChat(sources, dataDir, vault, messages);
  const app = sources.createApp({
    host: 'cli',
    version: '0.0.0',
    dataDir,
    resourcesDir: join(repoRoot, 'resources'),
    vault,
    watch: false,
    model: {
      provider: 'openai-compatible',
      baseUrl: `${serverUrl}/v1`,
      model: 'scripted-model',
      contextWindow: window,
    },
  });
  await app.start();
  await app.index.whenIdle();
  return {
    app,
    sessionId,
    dataDir,
    async dispose() {
      await app.dispose();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

const question =
  'What do my notes say about linking ideas across folders, and how does a slip box keep one thought ' +
  'per card? Compare the method with keeping literature notes apart from permanent ones, and say which ' +
  'of my sources argue for atomic notes and which against them, with the reasons each one gives.';

export async function measureContextMeter(
  messages = 5000,
  windows = [8192, 131072],
  newMessages = Number(process.env.BENCH_METER_MESSAGES ?? 20),
): Promise<{ meter: MeterFigures[]; streams: StreamBytes[] }> {
  const sources = await loadSources();
  const server = await sources.startScriptedModelServer({ models: [{ id: 'scripted-model' }] });
  const meter: MeterFigures[] = [];
  const streams: StreamBytes[] = [];
  try {
    for (const window of windows) {
      const bench = await benchApp(sources, server.url, messages, window);
      try {
        const { app, sessionId } = bench;
        const status = (draft: string) => app.handlers['context:status']({ sessionId, draft });
        const figures: MeterFigures = { messages, window, keystrokeMs: [], newMessageMs: [] };
        // The first reading reads the session and loads the encoding: not a keystroke's.
        await status('');
        for (let length = 1; length <= question.length; length++) {
          const started = performance.now();
          await status(question.slice(0, length));
          figures.keystrokeMs.push(performance.now() - started);
        }
        // A question and its answer added to the chat (by another connection, as another process would).
        const db = sources.openAppDatabase(bench.dataDir);
        try {
          const store = new sources.ChatStore(db);
          for (let turn = 0; turn < newMessages; turn++) {
            store.addMessage(sessionId, {
              role: 'user',
              parts: [{ type: 'text', step: 0, text: `Question ${turn}: ${question}` }],
              status: 'complete',
              model: null,
            });
            store.addMessage(sessionId, {
              role: 'assistant',
              parts: [{ type: 'text', step: 0, text: `Answer ${turn}: ${question}` }],
              status: 'complete',
              model: 'bench',
            });
            const started = performance.now();
            await status(question);
            figures.newMessageMs.push(performance.now() - started);
          }
        } finally {
          db.close();
        }
        meter.push(figures);
        if (window === windows.at(-1)) {
          // Planned as `discard`: under `hybrid` the first request would summarize the stored chat first.
          app.context.setStrategy(sessionId, 'discard');
          streams.push(await streamBytes(sources, server, app, sessionId));
        }
      } finally {
        await bench.dispose();
      }
    }
    // The same answer in a new chat: its requests hold little.
    const fresh = await benchApp(sources, server.url, 0, windows.at(-1)!);
    try {
      streams.unshift(await streamBytes(sources, server, fresh.app, undefined));
    } finally {
      await fresh.dispose();
    }
  } finally {
    await server.stop();
  }
  return { meter, streams };
}

/** Streams a 2,000-word answer in the session (a new chat without one) and counts the frames sent for it. */
async function streamBytes(
  sources: Sources,
  server: Awaited<ReturnType<Sources['startScriptedModelServer']>>,
  app: Awaited<ReturnType<typeof benchApp>>['app'],
  sessionId: string | undefined,
): Promise<StreamBytes> {
  const messages = sessionId ? app.chat.session(sessionId).messages.length : 0;
  // About 12,000 characters in 500 writes 4 ms apart, as test/integration/chat-deltas.test.ts streams it.
  server.script([{ text: sources.longAnswer(2000), chunkSize: 24, delayMs: 4 }]);
  const followed = sources.followAnswers(app);
  try {
    await (
      await app.chat.send({ text: 'Tell me everything.', sessionId })
    ).done;
  } finally {
    followed.stop();
  }
  return {
    messages,
    announcements: followed.deltas + followed.wholes,
    sent: followed.sentBytes,
    whole: followed.wholeBytes,
  };
}

// Run alone (`node … context-meter.ts`), it prints its figures as JSON: how the same measure is taken of
// an older commit's sources, by copying this file and source-hooks.ts beside them.
if (process.argv[1] === import.meta.filename) {
  console.log(JSON.stringify(await measureContextMeter()));
}
