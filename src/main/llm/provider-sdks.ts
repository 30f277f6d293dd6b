import { importOnFirstUse } from '../lazy-import';
import { ModelError } from './llm-types';

// Each provider's SDK is imported when a model of that provider is first asked, so a user of one
// provider never loads the others, and one who asks no model loads none.

/** A provider's code that cannot be loaded fails the call like any model error, in words. */
export const modelCodeMissing = (message: string) => new ModelError(message, 'other');

export const anthropicSdk = importOnFirstUse(
  'the Anthropic provider (@ai-sdk/anthropic)',
  () => import('@ai-sdk/anthropic'),
  modelCodeMissing,
);

export const openAiCompatibleSdk = importOnFirstUse(
  'the OpenAI-compatible provider (@ai-sdk/openai-compatible)',
  () => import('@ai-sdk/openai-compatible'),
  modelCodeMissing,
);

export const ollamaSdk = importOnFirstUse(
  'the Ollama provider (ollama-ai-provider-v2)',
  () => import('ollama-ai-provider-v2'),
  modelCodeMissing,
);
