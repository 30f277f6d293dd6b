import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppOptions, KastenApp } from '../../src/main/app';
import { atMachine, dispatch } from '../../src/main/hosts/dispatch';
import { createChatModel } from '../../src/main/llm/ai-sdk-model';
import type { LlmEvent } from '../../src/main/llm/llm-types';
import { messageText, type ContextWindow, type ModelSettings } from '../../src/shared/chat-domain';
import { startIndexedApp } from '../support/indexed-app';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedModelServerOptions,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let server: ScriptedModelServer;
let app: KastenApp | null = null;

async function startServer(options: ScriptedModelServerOptions = {}): Promise<void> {
  await server?.stop();
  server = await startScriptedModelServer({
    models: [{ id: 'llama3.1:8b', contextLength: 131_072 }],
    ...options,
  });
}

async function startApp(
  model: Partial<ModelSettings>,
  options: Partial<AppOptions> = {},
): Promise<KastenApp> {
  app = await startIndexedApp(workspace.dataDir, workspace.vault, {
    backgroundSummaries: false,
    model: { model: 'llama3.1:8b', ...model },
    ...options,
  });
  return app;
}

/** Ollama's native API at the scripted server's root. */
function native(overrides: Partial<ModelSettings> = {}): Partial<ModelSettings> {
  return { provider: 'ollama', baseUrl: server.url, ...overrides };
}

async function call(channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<unknown> {
  const envelope = await dispatch(app!, channel, payload, atMachine);
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value;
}

const shownWindow = async () => (await call('models:window')) as ContextWindow;

/** The `num_ctx` each native chat request asked Ollama to run the model with. */
const numCtxSent = () =>
  server.chatRequests.map((request) => (request.body.options as { num_ctx?: number } | undefined)?.num_ctx);

beforeEach(async () => {
  workspace = tempWorkspace('chat');
  await startServer();
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await server.stop();
  workspace.remove();
});

describe("Ollama's native API", () => {
  it('runs the model with the window models:window shows, on every request of a turn', async () => {
    await startApp(native());
    expect(await shownWindow()).toEqual({ tokens: 8_192, source: 'ollama-num-ctx' });
    server.script([{ text: 'Cards link to cards.' }]);
    const turn = await app!.chat.send({ text: 'What links notes?' });
    const answer = await turn.done;
    expect(answer.status).toBe('complete');
    expect(messageText(answer)).toBe('Cards link to cards.');
    expect(server.chatRequests.map((request) => request.api)).toEqual(['ollama']);
    expect(numCtxSent()).toEqual([8_192]);
  });

  it('runs a tool call and sends its result back over /api/chat', async () => {
    await startApp(native());
    server.script([
      { toolCalls: [{ id: 'call-read', name: 'read_note', arguments: { note: 'Atomic notes' } }] },
      { text: 'One idea per note [1].' },
    ]);
    const answer = await (await app!.chat.send({ text: 'What is an atomic note?' })).done;
    expect(answer.status).toBe('complete');
    expect(answer.parts).toContainEqual(
      expect.objectContaining({
        type: 'tool-call',
        name: 'read_note',
        args: { note: 'Atomic notes' },
        ok: true,
      }),
    );
    const second = server.chatRequests[1]!;
    // The call went back as Ollama takes it (arguments as an object), then the note as the tool's answer.
    const sentCall = (second.body.messages as { tool_calls?: { function: { arguments: unknown } }[] }[]).find(
      (message) => message.tool_calls,
    );
    expect(sentCall?.tool_calls?.[0]?.function.arguments).toEqual({ note: 'Atomic notes' });
    const toolAnswer = second.messages.find((message) => message.role === 'tool');
    expect(String(toolAnswer?.content)).toContain('Atomic notes');
    expect(numCtxSent()).toEqual([8_192, 8_192]);
    expect(messageText(answer)).toContain('One idea per note');
  });

  it("runs the model with the Modelfile's num_ctx when it sets one", async () => {
    await startServer({ models: [{ id: 'llama3.1:8b', contextLength: 131_072, numCtx: 24_576 }] });
    await startApp(native());
    expect(await shownWindow()).toEqual({ tokens: 24_576, source: 'modelfile' });
    await (
      await app!.chat.send({ text: 'Hello?' })
    ).done;
    expect(numCtxSent()).toEqual([24_576]);
  });

  it('summarizes notes with the same num_ctx as chat, so Ollama does not reload the model', async () => {
    await startApp(native());
    const report = (await call('summaries:run')) as { summarized: number };
    expect(report.summarized).toBe(3);
    expect(server.chatRequests.map((request) => request.api)).toEqual(['ollama', 'ollama', 'ollama']);
    expect(numCtxSent()).toEqual([8_192, 8_192, 8_192]);
  });
});

describe("Ollama's OpenAI-compatible API", () => {
  it('plans with the window Ollama runs the model with, never the trained maximum', async () => {
    await startServer({ ollamaVersion: '0.12.6' });
    await startApp({ provider: 'openai-compatible', baseUrl: `${server.url}/v1` });
    expect(await shownWindow()).toEqual({ tokens: 4_096, source: 'ollama-default' });
    server.setModels([{ id: 'llama3.1:8b', contextLength: 131_072, loadedContextLength: 8_192 }]);
    expect(await shownWindow()).toEqual({ tokens: 8_192, source: 'ollama-loaded' });
    server.setModels([{ id: 'llama3.1:8b', contextLength: 131_072, numCtx: 16_384 }]);
    expect(await shownWindow()).toEqual({ tokens: 16_384, source: 'modelfile' });
  });
});

describe("the user's context window", () => {
  it('wins over every figure the server gives, and is what Ollama runs the model with', async () => {
    await startServer({
      ollamaVersion: '0.12.6',
      models: [{ id: 'llama3.1:8b', contextLength: 131_072, numCtx: 16_384, loadedContextLength: 8_192 }],
    });
    await startApp(native({ contextWindow: 20_000 }));
    expect(await shownWindow()).toEqual({ tokens: 20_000, source: 'user' });
    await (
      await app!.chat.send({ text: 'Hello?' })
    ).done;
    expect(numCtxSent()).toEqual([20_000]);

    const settings = { model: 'llama3.1:8b', apiKeyEnv: null, contextWindow: 12_000 };
    await call('models:configure', {
      ...settings,
      provider: 'openai-compatible',
      baseUrl: `${server.url}/v1`,
    });
    expect(await shownWindow()).toEqual({ tokens: 12_000, source: 'user' });
  });
});

describe('a model call', () => {
  /** Streams one request with `maxOutputTokens` through a model built for `settings`. */
  async function streamOnce(settings: ModelSettings): Promise<LlmEvent[]> {
    const model = createChatModel(settings, null);
    const events: LlmEvent[] = [];
    const request = { system: 'Be brief.', messages: [{ role: 'user' as const, text: 'Hi' }], tools: [] };
    for await (const event of model.stream({
      ...request,
      maxOutputTokens: 300,
      signal: new AbortController().signal,
    })) {
      events.push(event);
    }
    return events;
  }
  const base = { model: 'llama3.1:8b', apiKeyEnv: null, contextWindow: null, summaryModel: null };

  it('keeps room for the answer: max_tokens on /v1, num_predict on Ollama', async () => {
    await streamOnce({ ...base, provider: 'openai-compatible', baseUrl: `${server.url}/v1` });
    await streamOnce({ ...base, provider: 'ollama', baseUrl: server.url });
    const [openAi, ollama] = server.chatRequests;
    expect(openAi?.body.max_tokens).toBe(300);
    expect(ollama?.body.options).toEqual({ num_ctx: 8_192, num_predict: 300 });
  });

  it('ends with the message Ollama reports in the middle of a stream', async () => {
    server.script([
      { fault: 'stream-error', text: 'Half an', message: 'model runner has unexpectedly stopped' },
    ]);
    const settings: ModelSettings = { ...base, provider: 'ollama', baseUrl: server.url };
    await expect(streamOnce(settings)).rejects.toThrow(
      `Ollama at ${server.url} failed while answering: model runner has unexpectedly stopped`,
    );
  });
});

describe('the default settings', () => {
  it("talk to Ollama's native API on this machine", async () => {
    app = await startIndexedApp(workspace.dataDir, workspace.vault, { backgroundSummaries: false });
    expect(await call('models:settings')).toMatchObject({
      settings: { provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: '' },
    });
  });

  it('take a --base-url ending in /v1, given without --provider, for an OpenAI-compatible server', async () => {
    await startApp({ baseUrl: `${server.url}/v1` });
    expect(await call('models:settings')).toMatchObject({ settings: { provider: 'openai-compatible' } });
    await (
      await app!.chat.send({ text: 'Hello?' })
    ).done;
    expect(server.chatRequests.map((request) => request.api)).toEqual(['openai']);
  });
});
