import type { ModelSettings } from '../../shared/chat-domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import { importOnFirstUse } from '../lazy-import';
import { trimmedBaseUrl } from './model-list';
import { modelCodeMissing } from './provider-sdks';

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

/** The identity `createEmbeddingModel(settings)` has, without building it. */
export function embeddingIdentity(settings: EmbeddingSettings): string {
  return `${settings.model} at ${trimmedBaseUrl(asModelSettings(settings))} (${settings.provider})`;
}

/** The AI SDK and the embedding model built on it, loaded by the first texts to embed. */
const embeddingModelSdk = importOnFirstUse(
  'the AI SDK (ai) for embedding models',
  () => import('./sdk-embedding-model'),
  modelCodeMissing,
);

/**
 * The embedding model of `settings`: Ollama's native `/api/embed`, or an OpenAI-compatible `/embeddings`.
 * The SDK and the provider's package are imported at the first texts to embed.
 */
export function createEmbeddingModel(settings: EmbeddingSettings, apiKey: string | null): EmbeddingModel {
  let model: EmbeddingModel | null = null;
  return {
    name: settings.model,
    identity: embeddingIdentity(settings),
    async embed(texts, purpose, options) {
      if (texts.length === 0) return [];
      model ??= await (await embeddingModelSdk()).sdkEmbeddingModel(settings, apiKey);
      return model.embed(texts, purpose, options);
    },
  };
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
