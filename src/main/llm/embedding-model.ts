import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany, type EmbeddingModel as SdkEmbeddingModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ModelSettings } from '../../shared/chat-domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import { failFast } from './fail-fast-fetch';
import { ModelError } from './llm-types';
import { describeModelError } from './model-errors';
import { serverRoot, trimmedBaseUrl } from './model-list';

/** Passages are embedded to be stored; a query to be compared with them. Some models want to know which. */
export type EmbeddingPurpose = 'document' | 'query';

export interface EmbedOptions {
  signal: AbortSignal;
  /** How long the call may take, retries included (default: 2 minutes for passages, 10 s for a query). */
  timeoutMs?: number;
}

/** A model that turns texts into vectors. */
export interface EmbeddingModel {
  readonly name: string;
  /** The model and its server: vectors of two identities cannot be compared. */
  readonly identity: string;
  /** One vector per text, in order, all of one length; failures are `ModelError`s naming the server. */
  embed(texts: readonly string[], purpose: EmbeddingPurpose, options: EmbedOptions): Promise<number[][]>;
}

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

/** The identity `createEmbeddingModel(settings)` has, without building it. */
export function embeddingIdentity(settings: EmbeddingSettings): string {
  return `${settings.model} at ${trimmedBaseUrl(asModelSettings(settings))} (${settings.provider})`;
}

/** The embedding model of `settings`: Ollama's native `/api/embed`, or an OpenAI-compatible `/embeddings`. */
export function createEmbeddingModel(settings: EmbeddingSettings, apiKey: string | null): EmbeddingModel {
  const model = sdkModel(settings, apiKey);
  const prefixes = taskPrefixes.find((entry) => entry.pattern.test(settings.model));
  const described = asModelSettings(settings);
  return {
    name: settings.model,
    identity: embeddingIdentity(settings),
    async embed(texts, purpose, { signal, timeoutMs }) {
      if (texts.length === 0) return [];
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

function sdkModel(settings: EmbeddingSettings, apiKey: string | null): SdkEmbeddingModel {
  if (settings.provider === 'ollama') {
    return createOllama({
      baseURL: `${serverRoot(asModelSettings(settings))}/api`,
      // Ollama has no keys of its own; one is for a proxy in front of it.
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      fetch: failFast(),
    }).embeddingModel(settings.model);
  }
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

/** The settings in the chat model's shape, which error messages, server paths and API keys read. */
export function asModelSettings(settings: EmbeddingSettings): ModelSettings {
  return {
    provider: settings.provider,
    baseUrl: settings.baseUrl,
    model: settings.model,
    apiKeyEnv: settings.apiKeyEnv,
    contextWindow: null,
    summaryModel: null,
  };
}
