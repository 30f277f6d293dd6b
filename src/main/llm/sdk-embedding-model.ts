import { embedMany, type EmbeddingModel as SdkEmbeddingModel } from 'ai';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import { asModelSettings, embeddingIdentity, type EmbeddingModel } from './embedding-model';
import { failFast } from './fail-fast-fetch';
import { ModelError } from './llm-types';
import { describeModelError } from './model-errors';
import { serverRoot } from './model-list';
import { ollamaSdk, openAiCompatibleSdk } from './provider-sdks';

/**
 * Task prefixes of models trained with them: without them their passages and queries land further
 * apart (nomic-embed-text's model card; mxbai-embed-large's for queries).
 */
const taskPrefixes: { pattern: RegExp; document: string; query: string }[] = [
  { pattern: /nomic-embed-text/i, document: 'search_document: ', query: 'search_query: ' },
  {
    pattern: /mxbai-embed-large/i,
    document: '',
    query: 'Represent this sentence for searching relevant passages: ',
  },
];

/** `createEmbeddingModel`'s model once this module, the AI SDK and the provider's package are loaded. */
export async function sdkEmbeddingModel(
  settings: EmbeddingSettings,
  apiKey: string | null,
): Promise<EmbeddingModel> {
  const model = await sdkModel(settings, apiKey);
  const prefixes = taskPrefixes.find((entry) => entry.pattern.test(settings.model));
  const described = asModelSettings(settings);
  return {
    name: settings.model,
    identity: embeddingIdentity(settings),
    async embed(texts, purpose, { signal, timeoutMs }) {
      const prefix = prefixes?.[purpose] ?? '';
      const limit = timeoutMs ?? (purpose === 'query' ? 10_000 : 120_000);
      const timeout = AbortSignal.timeout(limit);
      let embeddings: number[][];
      try {
        ({ embeddings } = await embedMany({
          model,
          values: texts.map((text) => prefix + text),
          // A query is asked for while the user waits: a server that is down says so at once.
          maxRetries: purpose === 'query' ? 0 : 2,
          maxParallelCalls: 1,
          abortSignal: AbortSignal.any([signal, timeout]),
        }));
      } catch (error) {
        signal.throwIfAborted();
        if (timeout.aborted) {
          throw new ModelError(
            `The embedding server at ${settings.baseUrl} did not answer within ${limit / 1000} seconds.`,
            'unreachable',
          );
        }
        throw describeModelError(error, described, 'embedding server');
      }
      return checked(embeddings, texts.length, settings);
    },
  };
}

async function sdkModel(settings: EmbeddingSettings, apiKey: string | null): Promise<SdkEmbeddingModel> {
  if (settings.provider === 'ollama') {
    const { createOllama } = await ollamaSdk();
    return createOllama({
      baseURL: `${serverRoot(asModelSettings(settings))}/api`,
      // Ollama has no keys of its own; one is for a proxy in front of it.
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      fetch: failFast(),
    }).embeddingModel(settings.model);
  }
  const { createOpenAICompatible } = await openAiCompatibleSdk();
  return createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: settings.baseUrl,
    apiKey: apiKey ?? undefined,
    fetch: failFast(),
  }).embeddingModel(settings.model);
}

/** The vectors, once they are one per text, all of one length, and numbers. */
function checked(embeddings: number[][], count: number, settings: EmbeddingSettings): number[][] {
  const where = `The embedding server at ${settings.baseUrl}`;
  if (embeddings.length !== count) {
    throw new ModelError(`${where} returned ${embeddings.length} vectors for ${count} texts.`, 'bad-request');
  }
  const length = embeddings[0]?.length ?? 0;
  for (const vector of embeddings) {
    if (vector.length === 0 || vector.length !== length) {
      throw new ModelError(
        `${where} returned vectors of different lengths (${length} and ${vector.length}) for "${settings.model}".`,
        'bad-request',
      );
    }
    if (!vector.every(Number.isFinite)) {
      throw new ModelError(`${where} returned a vector that is not all numbers.`, 'bad-request');
    }
  }
  return embeddings;
}
