import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownContextWindow } from '../../src/main/llm/known-context-windows';
import {
  ContextWindowResolver,
  listModels,
  offlineContextWindow,
  resolveContextWindow,
  testConnection,
} from '../../src/main/llm/model-catalog';
import type { ModelSettings } from '../../src/shared/chat-domain';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer({
    models: [{ id: 'qwen3:8b', contextLength: 40_960 }, { id: 'llama3.1:8b' }, { id: 'gemma3:4b' }],
  });
});
afterEach(async () => {
  await server.stop();
});

function settings(overrides: Partial<ModelSettings> = {}): ModelSettings {
  return {
    provider: 'openai-compatible',
    baseUrl: `${server.url}/v1`,
    model: 'llama3.1:8b',
    apiKeyEnv: null,
    contextWindow: null,
    summaryModel: null,
    ...overrides,
  };
}

/** The URL of a server that has stopped: connecting to it is refused. */
async function deadUrl(): Promise<string> {
  const gone = await startScriptedModelServer();
  await gone.stop();
  return gone.url;
}

/** Real fetch that counts its calls. */
function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    },
  };
}

/** A server with only the OpenAI API, like OpenRouter or vLLM: Ollama's and LM Studio's routes are missing. */
const openAiOnly: typeof fetch = (input, init) =>
  new URL(String(input)).pathname.startsWith('/v1/')
    ? fetch(input, init)
    : Promise.resolve(new Response('404 page not found', { status: 404 }));

const paths = () => server.requests.map((request) => `${request.method} ${request.path}`);

describe('listModels', () => {
  it('lists the models sorted by id with the context lengths the server gives', async () => {
    expect(await listModels(settings(), null)).toEqual([
      { id: 'gemma3:4b', contextLength: null },
      { id: 'llama3.1:8b', contextLength: null },
      { id: 'qwen3:8b', contextLength: 40_960 },
    ]);
    expect(paths()).toEqual(['GET /v1/models']);
  });

  it('sends the API key as a Bearer token, and no Authorization header without one', async () => {
    server.requireApiKey('sk-test');
    await expect(listModels(settings(), 'sk-test')).resolves.toHaveLength(3);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    server.requireApiKey(null);
    await listModels(settings(), null);
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it("lists an Ollama server's models from its native /api/tags", async () => {
    const native = settings({ provider: 'ollama', baseUrl: server.url });
    expect((await listModels(native, null)).map((model) => model.id)).toEqual([
      'gemma3:4b',
      'llama3.1:8b',
      'qwen3:8b',
    ]);
    expect(paths()).toEqual(['GET /api/tags']);
  });

  it("sends Anthropic's headers to an Anthropic provider", async () => {
    const anthropic = settings({ provider: 'anthropic', model: 'claude-sonnet-4-0' });
    await expect(listModels(anthropic, 'sk-ant-test')).resolves.toHaveLength(3);
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['x-api-key']).toBe('sk-ant-test');
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers.authorization).toBeUndefined();
  });
});

describe('testConnection', () => {
  it('reports the number of models and that the chosen one is there', async () => {
    const report = await testConnection(settings(), null);
    expect(report).toMatchObject({ ok: true, problem: null });
    expect(report.message).toBe(`Connected to ${server.url}/v1: 3 models; llama3.1:8b is available.`);
    expect(report.models.map((model) => model.id)).toEqual(['gemma3:4b', 'llama3.1:8b', 'qwen3:8b']);
  });

  it('tests a native Ollama connection and says how to pull a missing model', async () => {
    const native = settings({ provider: 'ollama', baseUrl: server.url });
    expect(await testConnection(native, null)).toMatchObject({
      ok: true,
      message: `Connected to ${server.url}: 3 models; llama3.1:8b is available.`,
    });
    const missing = await testConnection({ ...native, model: 'mistral:7b' }, null);
    expect(missing.message).toContain('Run "ollama pull mistral:7b" to download it.');
    const dead = await testConnection({ ...native, baseUrl: await deadUrl() }, null);
    expect(dead.message).toMatch(/connection refused\. Is Ollama running\?$/);
  });

  it("finds an Ollama model named without its ':latest' tag", async () => {
    server.setModels([{ id: 'mistral:latest' }]);
    await expect(testConnection(settings({ model: 'mistral' }), null)).resolves.toMatchObject({ ok: true });
  });

  it('says the connection was refused, naming the URL', async () => {
    const url = await deadUrl();
    const report = await testConnection(settings({ baseUrl: `${url}/v1` }), null);
    expect(report).toEqual({
      ok: false,
      problem: 'unreachable',
      message: `Cannot reach ${url}/v1: connection refused. Is the server running?`,
      models: [],
    });
  });

  it("asks whether Ollama is running when the URL has Ollama's port", async () => {
    const port = new URL(await deadUrl()).port;
    const toDeadPort: typeof fetch = (input, init) =>
      fetch(String(input).replace(':11434', `:${port}`), init);
    const report = await testConnection(settings({ baseUrl: 'http://127.0.0.1:11434/v1' }), null, toDeadPort);
    expect(report.message).toBe(
      'Cannot reach http://127.0.0.1:11434/v1: connection refused. Is Ollama running?',
    );
  });

  it('says when the server does not answer in time', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    const impatient: typeof fetch = (input, init) =>
      fetch(input, { ...init, signal: AbortSignal.timeout(200) });
    try {
      const report = await testConnection(settings({ baseUrl: url }), null, impatient);
      expect(report).toMatchObject({ ok: false, problem: 'unreachable' });
      expect(report.message).toBe(`Cannot reach ${url}: no answer within 5 seconds. Is the server running?`);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('says the key was rejected and where the key comes from', async () => {
    server.requireApiKey('sk-right');
    const keyed = settings({ apiKeyEnv: 'KASTEN_TEST_KEY' });
    const report = await testConnection(keyed, 'sk-wrong');
    expect(report).toMatchObject({ ok: false, problem: 'auth', models: [] });
    expect(report.message).toBe(
      `${server.url}/v1 rejected the API key (401): Invalid API key. ` +
        'Check the key in Settings or the KASTEN_TEST_KEY environment variable.',
    );
    const missing = await testConnection(keyed, null);
    expect(missing.message).toBe(
      `${server.url}/v1 asks for an API key (401) and none was sent: set the KASTEN_TEST_KEY environment variable.`,
    );
  });

  it('says the chosen model is not there and lists what is', async () => {
    const report = await testConnection(settings({ model: 'mistral:7b' }), null);
    expect(report).toMatchObject({ ok: false, problem: 'unknown-model' });
    expect(report.message).toBe(
      `${server.url}/v1 has no model "mistral:7b". Available: gemma3:4b, llama3.1:8b, qwen3:8b.`,
    );
    expect(report.models).toHaveLength(3);
  });

  it('says no model is chosen', async () => {
    const report = await testConnection(settings({ model: '' }), null);
    expect(report).toMatchObject({ ok: false, problem: 'no-model' });
    expect(report.message).toBe(
      `Connected to ${server.url}/v1 (3 models), but no model is chosen. Available: gemma3:4b, llama3.1:8b, qwen3:8b.`,
    );
  });

  it('says the server failed', async () => {
    server.failModelList(500);
    const report = await testConnection(settings(), null);
    expect(report).toMatchObject({ ok: false, problem: 'server', models: [] });
    expect(report.message).toBe(
      `${server.url}/v1 failed with 500: The server had an error processing your request.`,
    );
  });
});

describe('resolveContextWindow', () => {
  it("uses the user's override without asking the server", async () => {
    const window = await resolveContextWindow(settings({ contextWindow: 6_000 }), null);
    expect(window).toEqual({ tokens: 6_000, source: 'user' });
    expect(server.requests).toHaveLength(0);
  });

  it("plans with Ollama's native window: the Modelfile's num_ctx, else the trained maximum up to 8,192", async () => {
    server.setModels([
      { id: 'llama3.1:8b', contextLength: 131_072 },
      { id: 'tinyllama', contextLength: 2_048 },
      { id: 'long:32k', contextLength: 131_072, numCtx: 32_768 },
    ]);
    const native = (model: string) => settings({ provider: 'ollama', baseUrl: server.url, model });
    expect(await resolveContextWindow(native('llama3.1:8b'), null)).toEqual({
      tokens: 8_192,
      source: 'ollama-num-ctx',
    });
    expect(paths()).toEqual(['POST /api/show']);
    expect(server.requests[0]?.body).toEqual({ model: 'llama3.1:8b' });
    expect(await resolveContextWindow(native('tinyllama'), null)).toEqual({
      tokens: 2_048,
      source: 'ollama-num-ctx',
    });
    expect(await resolveContextWindow(native('long:32k'), null)).toEqual({
      tokens: 32_768,
      source: 'modelfile',
    });
  });

  it('takes a native Ollama base URL typed with /api or /v1 as the server root', async () => {
    server.setModels([{ id: 'llama3.1:8b', contextLength: 131_072, numCtx: 16_384 }]);
    for (const suffix of ['/api', '/v1/']) {
      const typed = settings({ provider: 'ollama', baseUrl: `${server.url}${suffix}` });
      expect(await resolveContextWindow(typed, null)).toEqual({ tokens: 16_384, source: 'modelfile' });
    }
    expect(paths()).toEqual(['POST /api/show', 'POST /api/show']);
  });

  it("never plans with the trained maximum over Ollama's OpenAI-compatible API", async () => {
    const ollama = await startScriptedModelServer({
      ollamaVersion: '0.12.6',
      models: [{ id: 'llama3.1:8b', contextLength: 131_072 }],
    });
    try {
      const openAi = settings({ baseUrl: `${ollama.url}/v1` });
      expect(await resolveContextWindow(openAi, null)).toEqual({ tokens: 4_096, source: 'ollama-default' });
      expect(ollama.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'GET /api/version',
        'GET /api/ps',
        'POST /api/show',
      ]);
      ollama.setModels([{ id: 'llama3.1:8b', contextLength: 131_072, numCtx: 16_384 }]);
      expect(await resolveContextWindow(openAi, null)).toEqual({ tokens: 16_384, source: 'modelfile' });
      ollama.setModels([
        { id: 'llama3.1:8b', contextLength: 131_072, numCtx: 16_384, loadedContextLength: 8_192 },
      ]);
      expect(await resolveContextWindow(openAi, null)).toEqual({ tokens: 8_192, source: 'ollama-loaded' });
    } finally {
      await ollama.stop();
    }
  });

  it("plans with Ollama's older default of 2,048 for a version before 0.6.7", async () => {
    const ollama = await startScriptedModelServer({
      ollamaVersion: '0.6.5',
      models: [{ id: 'llama3.1:8b', contextLength: 131_072 }],
    });
    try {
      const window = await resolveContextWindow(settings({ baseUrl: `${ollama.url}/v1` }), null);
      expect(window).toEqual({ tokens: 2_048, source: 'ollama-default' });
    } finally {
      await ollama.stop();
    }
  });

  it("takes a server on Ollama's port for Ollama even when /api/version is missing", async () => {
    server.setModels([{ id: 'llama3.1:8b', contextLength: 131_072 }]);
    const toScripted: typeof fetch = (input, init) =>
      fetch(String(input).replace('127.0.0.1:11434', new URL(server.url).host), init);
    const onOllamaPort = settings({ baseUrl: 'http://127.0.0.1:11434/v1' });
    const window = await resolveContextWindow(onOllamaPort, null, toScripted);
    expect(window).toEqual({ tokens: 4_096, source: 'ollama-default' });
  });

  it("prefers llama.cpp's n_ctx from /props over the trained figure /v1/models lists", async () => {
    const llamaCpp = await startScriptedModelServer({
      llamaCppContext: 4_096,
      models: [{ id: 'Meta-Llama-3.1-8B-Instruct', contextLength: 131_072 }],
    });
    try {
      const local = settings({ baseUrl: `${llamaCpp.url}/v1`, model: 'Meta-Llama-3.1-8B-Instruct' });
      expect(await listModels(local, null)).toEqual([
        { id: 'Meta-Llama-3.1-8B-Instruct', contextLength: 131_072 },
      ]);
      expect(await resolveContextWindow(local, null)).toEqual({ tokens: 4_096, source: 'server-loaded' });
    } finally {
      await llamaCpp.stop();
    }
  });

  it("uses the context_length of the model's /models entry", async () => {
    server.setModels([{ id: 'meta-llama/llama-3.1-8b-instruct', contextLength: 16_000 }]);
    const openRouterLike = settings({ model: 'meta-llama/llama-3.1-8b-instruct' });
    const window = await resolveContextWindow(openRouterLike, null, openAiOnly);
    expect(window).toEqual({ tokens: 16_000, source: 'provider' });
    expect(paths()).toEqual(['GET /v1/models']);
  });

  it("uses LM Studio's loaded context length, else its maximum", async () => {
    server.setModels([
      { id: 'qwen2.5-7b-instruct', maxContextLength: 32_768, loadedContextLength: 12_000 },
      { id: 'gemma-3-12b-it', maxContextLength: 131_072 },
    ]);
    const loaded = await resolveContextWindow(settings({ model: 'qwen2.5-7b-instruct' }), null);
    expect(loaded).toEqual({ tokens: 12_000, source: 'server-loaded' });
    expect(paths()).toEqual(['GET /api/version', 'GET /props', 'GET /api/v0/models']);
    const unloaded = await resolveContextWindow(settings({ model: 'gemma-3-12b-it' }), null);
    expect(unloaded).toEqual({ tokens: 131_072, source: 'provider' });
  });

  it('uses the known family when the server has no figure', async () => {
    expect(await resolveContextWindow(settings(), null)).toEqual({ tokens: 131_072, source: 'known-model' });
  });

  it('falls back to 8,192 for a model nobody knows', async () => {
    server.setModels([{ id: 'mystery-model' }]);
    const window = await resolveContextWindow(settings({ model: 'mystery-model' }), null);
    expect(window).toEqual({ tokens: 8_192, source: 'fallback' });
  });

  it('gives up on the server after a refused connection', async () => {
    const counting = countingFetch();
    const dead = settings({ baseUrl: `${await deadUrl()}/v1`, model: 'qwen3:8b' });
    const window = await resolveContextWindow(dead, null, counting.fetch);
    expect(window).toEqual({ tokens: 40_960, source: 'known-model' });
    expect(counting.calls).toHaveLength(1);
  });

  it('plans for a native Ollama server that is down with the num_ctx Kasten would send', async () => {
    const dead = settings({ provider: 'ollama', baseUrl: await deadUrl() });
    expect(await resolveContextWindow(dead, null)).toEqual({ tokens: 8_192, source: 'ollama-num-ctx' });
    const small = await resolveContextWindow({ ...dead, model: 'phi3:mini' }, null);
    expect(small).toEqual({ tokens: 4_096, source: 'ollama-num-ctx' });
  });

  it('uses the Claude family figure for an Anthropic alias', async () => {
    server.setModels([{ id: 'claude-sonnet-4-20250514' }]);
    const anthropic = settings({ provider: 'anthropic', model: 'claude-sonnet-4-0' });
    expect(await resolveContextWindow(anthropic, 'sk-ant')).toEqual({
      tokens: 200_000,
      source: 'known-model',
    });
    expect(paths()).toEqual(['GET /v1/models']);
  });
});

describe('ContextWindowResolver', () => {
  it('asks the server once per base URL and model', async () => {
    server.setModels([{ id: 'llama3.1:8b', contextLength: 65_536 }]);
    const resolver = new ContextWindowResolver();
    const first = await resolver.resolve(settings(), null);
    const asked = server.requests.length;
    expect(await resolver.resolve(settings(), null)).toEqual(first);
    expect(server.requests).toHaveLength(asked);
    resolver.forget();
    await resolver.resolve(settings(), null);
    expect(server.requests).toHaveLength(asked * 2);
  });

  it('asks Ollama again for a window that holds only while the model stays loaded as it is', async () => {
    const ollama = await startScriptedModelServer({
      ollamaVersion: '0.12.6',
      models: [{ id: 'llama3.1:8b', contextLength: 131_072 }],
    });
    try {
      const resolver = new ContextWindowResolver();
      const openAi = settings({ baseUrl: `${ollama.url}/v1` });
      expect(await resolver.resolve(openAi, null)).toEqual({ tokens: 4_096, source: 'ollama-default' });
      ollama.setModels([{ id: 'llama3.1:8b', contextLength: 131_072, loadedContextLength: 32_768 }]);
      expect(await resolver.resolve(openAi, null)).toEqual({ tokens: 32_768, source: 'ollama-loaded' });
    } finally {
      await ollama.stop();
    }
  });

  it('asks a server it could not reach again after a while, not before every request', async () => {
    const counting = countingFetch();
    const resolver = new ContextWindowResolver(counting.fetch, 100);
    const dead = settings({ baseUrl: `${await deadUrl()}/v1` });
    expect(await resolver.resolve(dead, null)).toEqual(offlineContextWindow(dead));
    const asked = counting.calls.length;
    await resolver.resolve(dead, null);
    expect(counting.calls).toHaveLength(asked);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await resolver.resolve(dead, null);
    expect(counting.calls).toHaveLength(asked * 2);
    // Testing the connection (or new settings) forgets it at once.
    resolver.forget();
    await resolver.resolve(dead, null);
    expect(counting.calls).toHaveLength(asked * 3);
  });
});

describe('knownContextWindow', () => {
  it.each([
    ['llama3.1:8b', 131_072],
    ['llama3:8b', 8_192],
    ['Meta-Llama-3.1-8B-Instruct', 131_072],
    ['phi3:mini', 4_096],
    ['phi3:medium-128k', 131_072],
    ['gpt-4-32k', 32_768],
    ['gpt-4o-mini', 128_000],
    ['gpt-4', 8_192],
    ['openai/o1', 200_000],
    ['claude-3-5-haiku-latest', 200_000],
    ['qwen3:30b', 40_960],
    ['foo1', null],
  ])('%s → %s', (model, tokens) => {
    expect(knownContextWindow(model)).toBe(tokens);
  });
});
