import { createRequire } from 'node:module';

/** The public BPE encodings Kasten counts with. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** How a model's tokens are estimated locally. */
export interface TokenizerChoice {
  encoding: EncodingName;
  /**
   * The first guess of provider tokens per local token, before any response has calibrated it. 1 where
   * the encoding is the model's own.
   */
  factor: number;
  family: 'openai' | 'openai-legacy' | 'anthropic' | 'other';
}

/**
 * Anthropic does not publish Claude's tokenizer (its count_tokens endpoint needs a network call per
 * count). Claude counts the same text as clearly more tokens than o200k: tools that estimated with
 * o200k × 1.15 found it consistently short and moved to 1.25 (copilot-api #134, #141). Over-estimating
 * only wastes a little room, under-estimating gets requests refused, and the first answer's reported
 * usage replaces this guess anyway.
 */
export const anthropicFactor = 1.25;

// Current OpenAI families (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1/o3/o4, gpt-oss) use o200k; checked first
// because "gpt-4o" and "gpt-4.1" also start like the older "gpt-4".
const o200kModels =
  /^(?:chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|gpt-realtime|o[134](?:$|[-.:])|codex)/;
const cl100kModels = /^(?:gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada)/;

/**
 * The encoding and starting factor for a model id as the provider names it ("gpt-4o-mini",
 * "openai/gpt-4.1" on OpenRouter, "claude-sonnet-4-5", "llama3.1:8b"). Local and unknown models get
 * o200k: their own tokenizers (Llama 3, Qwen, Mistral, Gemma) are of a similar size, and calibration
 * learns the difference.
 */
export function tokenizerFor(model: string, provider?: 'openai-compatible' | 'anthropic'): TokenizerChoice {
  const id = model.toLowerCase().split('/').at(-1) ?? '';
  if (provider === 'anthropic' || id.startsWith('claude')) {
    return { encoding: 'o200k_base', factor: anthropicFactor, family: 'anthropic' };
  }
  if (o200kModels.test(id)) return { encoding: 'o200k_base', factor: 1, family: 'openai' };
  if (cl100kModels.test(id)) return { encoding: 'cl100k_base', factor: 1, family: 'openai-legacy' };
  return { encoding: 'o200k_base', factor: 1, family: 'other' };
}

type EncodingModule = typeof import('gpt-tokenizer/encoding/o200k_base');

// Text that happens to contain `<|endoftext|>` or `<|im_start|>` (a note about tokenizers, a pasted
// prompt) is counted as the plain text it is: gpt-tokenizer throws on special tokens by default.
const plainText = { disallowedSpecial: new Set<string>() };

const loaded = new Map<EncodingName, (text: string) => number>();

/**
 * A counting function for the encoding. Loaded on first use: each table holds tens of MB of heap that
 * a process which never counts (`kasten index`) should not carry.
 */
export function encodingCounter(name: EncodingName): (text: string) => number {
  let count = loaded.get(name);
  if (!count) {
    const encoding = createRequire(import.meta.url)(`gpt-tokenizer/encoding/${name}`) as EncodingModule;
    count = (text: string) => (text === '' ? 0 : encoding.countTokens(text, plainText));
    loaded.set(name, count);
  }
  return count;
}
