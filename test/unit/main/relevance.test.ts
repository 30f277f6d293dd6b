import { describe, expect, it } from 'vitest';
import { TextVectors } from '../../../src/main/embeddings/text-vectors';
import { scoreRelevance } from '../../../src/main/request/sources/relevance';
import { ServerDownError } from '../../../src/main/llm/fail-fast-fetch';
import { ModelError } from '../../../src/main/llm/llm-types';
import { describeModelError } from '../../../src/main/llm/model-errors';
import type { ModelSettings } from '../../../src/shared/chat-domain';

const settings = {
  provider: 'ollama',
  baseUrl: 'http://127.0.0.1:11434',
  model: 'nomic-embed-text',
  apiKeyEnv: null,
  contextWindow: null,
  summaryModel: null,
} as ModelSettings;

/** Vectors from an embedding server that fails as `error` says. */
function failingVectors(error: unknown): TextVectors {
  return new TextVectors(() => ({
    name: 'nomic-embed-text',
    identity: 'ollama|nomic-embed-text',
    embed: () => Promise.reject(error),
  }));
}

const signal = new AbortController().signal;

describe('relevance when the embedding server fails', () => {
  it('says once, in plain words and without an error code, that a server that is down left words to judge', async () => {
    const down = describeModelError(new ServerDownError('ECONNREFUSED'), settings);
    const relevance = await scoreRelevance(failingVectors(down), 'slip box', ['slip box notes'], signal);
    expect(relevance.by).toBe('words');
    expect(relevance.notice).toBe(
      'Rules, tools and pinned passages were matched to the message by words. The embedding server is not reachable.',
    );
  });

  it('names another failure in a sentence of its own, calling the server the embedding server', async () => {
    const wrong = new ModelError(
      'The embedding server at http://127.0.0.1:11434 returned 2 vectors for 1 texts.',
      'bad-request',
    );
    const relevance = await scoreRelevance(failingVectors(wrong), 'slip box', ['slip box notes'], signal);
    expect(relevance.notice).toBe(
      'Rules, tools and pinned passages were matched to the message by words. The embedding server at http://127.0.0.1:11434 returned 2 vectors for 1 texts.',
    );
  });

  it('says a failure the server gave as the embedding server’s', async () => {
    const failed = describeModelError(new Error('boom'), settings, 'embedding server');
    const relevance = await scoreRelevance(failingVectors(failed), 'slip box', ['slip box notes'], signal);
    expect(relevance.notice).toBe(
      'Rules, tools and pinned passages were matched to the message by words. The call to the embedding server at http://127.0.0.1:11434 failed: boom.',
    );
  });
});
