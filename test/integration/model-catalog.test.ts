import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownContextWindow } from '../../src/main/llm/known-context-windows';
import {
  ContextWindowResolver,
  listModels,
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

  it("uses Ollama's /api/show figure", async () => {
    server.setModels([{ id: 'llama3.1:8b', contextLength: 65_536 }]);
    expect(await resolveContextWindow(settings(), null)).toEqual({ tokens: 65_536, source: 'provider' });
    expect(paths()).toEqual(['POST /api/show']);
    expect(server.requests[0]?.body).toEqual({ model: 'llama3.1:8b' });
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
    expect(loaded).toEqual({ tokens: 12_000, source: 'provider' });
    expect(paths()).toEqual(['POST /api/show', 'GET /v1/models', 'GET /api/v0/models']);
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

  it('asks again when the server could not be reached', async () => {
    const counting = countingFetch();
    const resolver = new ContextWindowResolver(counting.fetch);
    const dead = settings({ baseUrl: `${await deadUrl()}/v1` });
    await resolver.resolve(dead, null);
    await resolver.resolve(dead, null);
    expect(counting.calls).toHaveLength(2);
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
