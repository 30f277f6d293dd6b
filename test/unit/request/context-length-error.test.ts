import { describe, expect, it } from 'vitest';
import { recognizeContextLengthError } from '../../../src/main/request/context-length-error';
import { gpt4o, newEngine } from './context-fixtures';

/** An error shaped as the AI SDK throws a refused call: a message, the status and the raw body. */
function apiError(message: string, body: unknown): Error {
  return Object.assign(new Error(message), { statusCode: 400, responseBody: JSON.stringify(body) });
}

describe('recognizing context-length errors', () => {
  it.each([
    [
      'OpenAI',
      apiError('Bad Request', {
        error: {
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
        },
      }),
      { provider: 'openai', needed: 9_000, available: 8_192, promptTokens: 9_000 },
    ],
    [
      'Anthropic',
      apiError('prompt is too long: 210000 tokens > 200000 maximum', {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 210000 tokens > 200000 maximum',
        },
      }),
      { provider: 'anthropic', needed: 210_000, available: 200_000, promptTokens: 210_000 },
    ],
    [
      'Anthropic, with the output counted',
      new Error(
        'input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again',
      ),
      { provider: 'anthropic', needed: 207_951, available: 200_000, promptTokens: 199_759 },
    ],
    [
      'vLLM',
      new Error(
        "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.",
      ),
      { provider: 'vllm', needed: 122_946, available: 16_384, promptTokens: 112_946 },
    ],
    [
      'vLLM, newer wording',
      new Error(
        "This model's maximum context length is 32768 tokens. However, your request has 40000 input tokens. Please reduce the length of the input messages.",
      ),
      { provider: 'vllm', needed: 40_000, available: 32_768, promptTokens: 40_000 },
    ],
    [
      'llama.cpp server, counts in the JSON fields',
      apiError(
        'the request exceeds the available context size. try increasing the context size or enable context shift',
        {
          error: {
            code: 400,
            message:
              'the request exceeds the available context size. try increasing the context size or enable context shift',
            type: 'exceed_context_size_error',
            n_prompt_tokens: 14_429,
            n_ctx: 8_192,
          },
        },
      ),
      { provider: 'llama.cpp', needed: 14_429, available: 8_192, promptTokens: 14_429 },
    ],
    [
      'llama.cpp server, counts in the message',
      {
        error: {
          message:
            'request (25837 tokens) exceeds the available context size (25088 tokens), try increasing it',
        },
      },
      { provider: 'llama.cpp', needed: 25_837, available: 25_088, promptTokens: 25_837 },
    ],
    [
      'LM Studio',
      new Error(
        'Trying to keep the first 14538 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
      ),
      { provider: 'lm-studio', needed: 14_538, available: 2_048, promptTokens: 14_538 },
    ],
    [
      'LM Studio, older wording',
      new Error('Error: Input length 6491 exceeds context length 1500'),
      { provider: 'lm-studio', needed: 6_491, available: 1_500, promptTokens: 6_491 },
    ],
    [
      'Ollama',
      apiError('Bad Request', { error: 'the input length exceeds the context length' }),
      { provider: 'ollama', needed: null, available: null, promptTokens: null },
    ],
  ])('%s', (_name, error, expected) => {
    expect(recognizeContextLengthError(error)).toMatchObject(expected);
  });

  it('finds the wording in a cause wrapped by retries', () => {
    const last = new Error(
      "This model's maximum context length is 4097 tokens. However, your messages resulted in 5000 tokens",
    );
    const wrapped = Object.assign(new Error('Failed after 3 attempts'), { lastError: last });
    expect(recognizeContextLengthError(new Error('outer', { cause: wrapped }))).toMatchObject({
      needed: 5_000,
    });
  });

  it('does not take other failures for context-length errors', () => {
    for (const error of [
      new Error(
        'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 28000, Requested 4000.',
      ),
      apiError('Unauthorized', { error: { message: 'Incorrect API key provided' } }),
      new Error('fetch failed'),
      'model "llama9" not found, try pulling it first',
      null,
    ]) {
      expect(recognizeContextLengthError(error)).toBeNull();
    }
  });

  it('calibrates from the prompt size the provider stated', () => {
    const engine = newEngine();
    const error = recognizeContextLengthError(
      new Error(
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens",
      ),
    )!;
    expect(engine.recordOverflow(gpt4o, 7_500, error, true).verdict).toBe('calibrated');
    expect(engine.calibration(gpt4o).ratio).toBeCloseTo(1.2);
  });
});
