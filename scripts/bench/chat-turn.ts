// Kasten's own work per chat turn — everything but the model — in a long session: committing the user's
// message with its [[links]] resolved, building the request from the whole history, streaming and saving
// the answer, parsing its citations, recording references. The model is an in-process stub that answers
// at once; the time spent inside it is measured and subtracted.
//
// The services are the sources in src/, run in this process (not the built bundle, which exports no
// ChatService), through the module hooks of source-hooks.ts.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatModel, LlmEvent, LlmRequest } from '../../src/main/llm/llm-types.ts';
import { builtIndexWorker } from '../../test/support/built-worker.ts';
import { registerSourceHooks } from './source-hooks.ts';
import type { ToolVault } from '../../src/main/chat/note-locator.ts';
import { random } from './seeded-random.ts';

export interface ChatLengthFigures {
  /** Messages in the session before each measured turn. */
  messages: number;
  /** send → done, minus the time spent inside the model stub. */
  overheadMs: number[];
  /** send → send() resolved (both messages exist), minus model time until then. */
  committedMs: number[];
  /** Time inside the model stub per turn. */
  modelMs: number[];
}

export interface ChatFigures {
  notes: number;
  turns: number;
  lengths: ChatLengthFigures[];
}

const repoRoot = join(import.meta.dirname, '..', '..');
/** Lets this process import src/ (see source-hooks.ts). */
function loadSources() {
  registerSourceHooks();
  return Promise.all([
    import('../../src/main/app-events.ts'),
    import('../../src/main/chat/chat-service.ts'),
    import('../../src/main/chat/chat-store.ts'),
    import('../../src/main/index/index-workers.ts'),
    import('../../src/main/index/vault-index.ts'),
    import('../../src/main/storage/app-database.ts'),
    import('../../src/main/summaries/summary-queue.ts'),
    import('../../src/main/summaries/summary-store.ts'),
    import('../../src/main/vault/recent-vaults.ts'),
    import('../../src/main/vault/vault-service.ts'),
    import('../../src/main/request/session-context.ts'),
    import('../../src/main/request/context-engine.ts'),
    import('../../src/main/chat/context-settings.ts'),
    import('../../src/main/embeddings/related-notes.ts'),
    import('../../src/main/tools/tool-registry.ts'),
    import('../../src/main/tools/built-in-tools.ts'),
  ]);
}

/** A model that answers at once: `reply` word by word, then usage. Counts the time spent in its own code. */
class InstantModel implements ChatModel {
  readonly name = 'bench-instant';
  reply = '';
  busyMs = 0;

  async *stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    let resumed = performance.now();
    const words = this.reply.split(' ');
    for (let index = 0; index < words.length; index++) {
      const event: LlmEvent = { type: 'text', text: index === 0 ? words[index]! : ` ${words[index]}` };
      this.busyMs += performance.now() - resumed;
      yield event;
      resumed = performance.now();
    }
    const usage = { inputTokens: request.messages.length * 200, outputTokens: words.length };
    this.busyMs += performance.now() - resumed;
    yield { type: 'finish', usage };
  }
}

const vocabulary = (
  'note idea link card index folder structure method slip box thought writing reading source quote claim ' +
  'argument question answer context summary permanent fleeting literature atomic review tag backlink graph ' +
  'outline draft revise connect compare explain example evidence pattern theme concept principle habit'
).split(' ');

export async function measureChatTurns(
  turns = Number(process.env.BENCH_CHAT_TURNS ?? 200),
  lengths = (process.env.BENCH_CHAT_LENGTHS ?? '10,500').split(',').map(Number),
): Promise<ChatFigures> {
  const [
    { AppEvents },
    { ChatService },
    { ChatStore },
    { createIndexWorkers },
    { VaultIndex },
    { openAppDatabase },
    { SummaryQueue },
    { SummaryStore },
    { RecentVaults },
    { VaultService },
    { SessionContext },
    { ContextEngine },
    { ContextSettingsStore },
    { relatedNotes },
    { ToolRegistry },
    { builtInTools },
  ] = await loadSources();

  const base = mkdtempSync(join(tmpdir(), 'kasten-bench-chat-'));
  const vaultDir = join(base, 'vault');
  cpSync(join(repoRoot, 'resources', 'sample-vault'), vaultDir, { recursive: true });

  // Composed as createApp (src/main/app.ts) does, with the model replaced and no watcher.
  const events = new AppEvents();
  // One connected window, as the browser host serializes each event for its WebSocket.
  events.subscribe((channel, payload) => JSON.stringify({ channel, payload }));
  const db = openAppDatabase(join(base, 'data'), (notice) => console.warn(notice));
  const workers = createIndexWorkers(existsSync(builtIndexWorker) ? builtIndexWorker : null);
  const index = new VaultIndex({ dataDir: join(base, 'data'), events, workers, onNotice: console.warn });
  const vault = new VaultService({ events, recent: new RecentVaults(db), listener: index, watch: false });
  const model = new InstantModel();
  const summaries = new SummaryQueue({
    store: new SummaryStore(db),
    model: () => model,
    modelKey: () => model.name,
    notes: (paths) => index.noteHashes(paths),
    readNote: (path) => vault.readNote(path),
  });
  const store = new ChatStore(db);
  const openVault = () => {
    const open = vault.summary()!;
    // Lexical only, as the app is without an embedding model.
    const tools: ToolVault = {
      readNote: (path: string) => vault.readNote(path),
      index,
      search: async (request) => ({ hits: await index.search(request), lexicalOnly: null }),
      related: async ({ path, limit }) => ({ notes: relatedNotes(path, index, [], limit), semantic: null }),
      summary: (path: string) => summaries.summaryFor(path)?.text ?? '',
    };
    return { root: open.path, name: open.name, tools };
  };
  const tools = new ToolRegistry(builtInTools);
  const chat = new ChatService({
    store,
    events,
    vault: openVault,
    model: () => model,
    tools: { registry: tools, mcp: null },
    context: new SessionContext({
      engine: new ContextEngine({ calibrations: store.contexts }),
      store,
      settings: new ContextSettingsStore(db),
      // The app's fallback window: what it plans with when the server says nothing.
      window: async () => ({ tokens: 8192, source: 'fallback' }),
      profile: () => ({ key: model.name, model: model.name }),
      model: () => model,
      vault: openVault,
      tools,
    }),
  });

  try {
    chat.start();
    await vault.open(vaultDir);
    await index.whenIdle();
    const titles = index.titles().map((entry) => entry.title);
    const next = random(42);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
    /** Prose of about `chars` characters; `links` wikilinks to sample notes, `cite` adds citations. */
    const prose = (chars: number, links: number, cite: boolean) => {
      const sentences: string[] = [];
      let length = 0;
      let linked = 0;
      while (length < chars) {
        const words = Array.from({ length: 8 + Math.floor(next() * 14) }, () => pick(vocabulary));
        if (linked < links) {
          words.splice(Math.floor(next() * words.length), 0, `[[${pick(titles)}]]`);
          linked++;
        }
        const citation = cite && next() < 0.5 ? ` [${1 + Math.floor(next() * 3)}]` : '';
        const sentence = `${words.join(' ')}${citation}.`;
        sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1));
        length += sentence.length + 1;
      }
      return sentences.join(' ');
    };
    const chars = () => 200 + Math.floor(next() * 1300);
    const answer = (wordCount: number) => {
      const words = Array.from({ length: wordCount }, () => pick(vocabulary));
      return `${words.join(' ')} [1].`;
    };

    /** One turn through the service; with `rollBack` the two new messages are deleted afterwards. */
    const turn = async (sessionId: string | undefined, text: string, rollBack: boolean) => {
      const modelBefore = model.busyMs;
      const started = performance.now();
      const { session, userMessage, assistantMessage, done } = await chat.send({ sessionId, text });
      // What the host answers chat:send with (the browser host serializes it as JSON).
      JSON.stringify({ session, userMessage, assistantMessage });
      const committed = performance.now();
      const modelAtCommit = model.busyMs;
      await done;
      const finished = performance.now();
      if (rollBack) {
        db.prepare('DELETE FROM messages WHERE id IN (?, ?)').run(userMessage!.id, assistantMessage.id);
      }
      return {
        sessionId: session.id,
        overheadMs: finished - started - (model.busyMs - modelBefore),
        committedMs: committed - started - (modelAtCommit - modelBefore),
        modelMs: model.busyMs - modelBefore,
      };
    };

    const figures: ChatLengthFigures[] = [];
    for (const messages of lengths) {
      // Fill the session through the service: questions of 200–1,500 characters, a third linking notes,
      // and answers of the same lengths with citations. This also warms the code up.
      let sessionId: string | undefined;
      for (let count = 0; count < messages; count += 2) {
        model.reply = prose(chars(), 0, true);
        const links = next() < 1 / 3 ? 1 + Math.floor(next() * 2) : 0;
        sessionId = (await turn(sessionId, prose(chars(), links, false), false)).sessionId;
      }
      if (chat.session(sessionId!).messages.length !== messages)
        throw new Error('The session did not fill up.');
      const measured: ChatLengthFigures = { messages, overheadMs: [], committedMs: [], modelMs: [] };
      // Each measured turn is deleted again, so every one sees exactly `messages` earlier messages.
      for (let round = -20; round < turns; round++) {
        model.reply = answer(60);
        const question = `What does [[${pick(titles)}]] say about ${prose(80, 0, false).toLowerCase().slice(0, -1)}?`;
        const timing = await turn(sessionId, question, true);
        if (round < 0) continue; // warm-up
        measured.overheadMs.push(timing.overheadMs);
        measured.committedMs.push(timing.committedMs);
        measured.modelMs.push(timing.modelMs);
      }
      figures.push(measured);
    }
    return { notes: titles.length, turns, lengths: figures };
  } finally {
    chat.stopAll();
    await vault.dispose();
    await index.close();
    await workers.dispose();
    db.close();
    rmSync(base, { recursive: true, force: true });
  }
}
