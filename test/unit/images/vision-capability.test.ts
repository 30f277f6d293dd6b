import { describe, expect, it } from 'vitest';
import type { ModelSettings } from '../../../src/shared/chat-domain';
import { knownToSeeImages } from '../../../src/main/images/known-vision-models';
import { VisionCapability } from '../../../src/main/images/vision-capability';

const settings = (patch: Partial<ModelSettings>): ModelSettings => ({
  provider: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:9/v1',
  model: 'm',
  apiKeyEnv: null,
  contextWindow: null,
  summaryModel: null,
  ...patch,
});

/** A server answering each path with `answers[path]`, counting the requests. */
function server(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    const path = new URL(String(input)).pathname;
    asked.push(path);
    const body = answers[path];
    return body === undefined
      ? new Response('{"error":"not found"}', { status: 404 })
      : new Response(JSON.stringify(body), { status: 200 });
  }) as typeof fetch;
  return { fetchImpl, asked };
}

describe('the known-models table', () => {
  it.each([
    'gpt-4o-mini',
    'openai/gpt-4.1',
    'claude-3-5-sonnet-latest',
    'claude-sonnet-4-5',
    'anthropic/claude-opus-4-1',
    'llava:13b',
    'gemma3:12b',
    'qwen2.5vl:7b',
    'llama3.2-vision:11b',
  ])('knows %s sees images', (model) => expect(knownToSeeImages(model)).toBe(true));

  it.each(['gpt-3.5-turbo', 'llama3.1:8b', 'qwen2.5:7b', 'mistral:7b', 'gemma3n:e4b', 'o1-mini'])(
    'knows %s does not',
    (model) => expect(knownToSeeImages(model)).toBe(false),
  );
});

describe('whether the configured model sees images', () => {
  it('asks Ollama’s /api/show capabilities first, once per model', async () => {
    const { fetchImpl, asked } = server({ '/api/show': { capabilities: ['completion', 'vision'] } });
    const vision = new VisionCapability(() => 'auto', null, fetchImpl);
    const ollama = settings({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9', model: 'my-own-model' });
    expect(await vision.of(ollama, null)).toEqual({ sees: true, source: 'ollama' });
    await vision.of(ollama, null);
    expect(asked).toEqual(['/api/show']);
  });

  it('asks /api/show of Ollama’s OpenAI-compatible API too, on Ollama’s port', async () => {
    const { fetchImpl, asked } = server({ '/api/show': { capabilities: ['completion', 'vision'] } });
    const vision = new VisionCapability(() => 'auto', null, fetchImpl);
    const v1 = settings({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'my-own-model' });
    expect(await vision.of(v1, null)).toEqual({ sees: true, source: 'ollama' });
    expect(asked).toEqual(['/api/show']);
  });

  it('believes Ollama over the table: a llava that lists no vision does not see', async () => {
    const { fetchImpl } = server({ '/api/show': { capabilities: ['completion'] } });
    const vision = new VisionCapability(() => 'auto', null, fetchImpl);
    const llava = settings({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9', model: 'llava:7b' });
    expect(await vision.of(llava, null)).toEqual({ sees: false, source: 'ollama' });
  });

  it('reads OpenRouter’s architecture.input_modalities for the model', async () => {
    const { fetchImpl } = server({
      '/v1/models': {
        data: [
          { id: 'vendor/pictures', architecture: { input_modalities: ['text', 'image'] } },
          { id: 'vendor/words', architecture: { input_modalities: ['text'] } },
        ],
      },
    });
    const vision = new VisionCapability(() => 'auto', null, fetchImpl);
    expect(await vision.of(settings({ model: 'vendor/pictures' }), null)).toEqual({
      sees: true,
      source: 'openrouter',
    });
    expect(await vision.of(settings({ model: 'vendor/words' }), null)).toEqual({
      sees: false,
      source: 'openrouter',
    });
  });

  it('falls back on the table when the server says nothing or cannot be reached', async () => {
    const { fetchImpl } = server({ '/v1/models': { data: [{ id: 'gpt-4o' }] } });
    const vision = new VisionCapability(() => 'auto', null, fetchImpl);
    expect(await vision.of(settings({ model: 'gpt-4o' }), null)).toEqual({
      sees: true,
      source: 'known-models',
    });
    const down = new VisionCapability(() => 'auto', null, (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    expect(await down.of(settings({ model: 'llama3.1' }), null)).toEqual({
      sees: false,
      source: 'known-models',
    });
  });

  it('lets the user’s setting, then this run’s --vision, win over what the server says', async () => {
    const { fetchImpl, asked } = server({ '/api/show': { capabilities: ['completion', 'vision'] } });
    const ollama = settings({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9', model: 'llava' });
    expect(await new VisionCapability(() => 'off', null, fetchImpl).of(ollama, null)).toEqual({
      sees: false,
      source: 'setting',
    });
    expect(await new VisionCapability(() => 'off', true, fetchImpl).of(ollama, null)).toEqual({
      sees: true,
      source: 'this-run',
    });
    expect(asked).toEqual([]);
  });
});
