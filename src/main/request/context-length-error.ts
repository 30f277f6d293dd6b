/** A provider's refusal of a request as longer than the model's context window. */
export interface ContextLengthError {
  provider: 'openai' | 'anthropic' | 'ollama' | 'vllm' | 'llama.cpp' | 'lm-studio' | 'unknown';
  /** Tokens the request needed as the provider counted them (prompt, plus output where it says so). */
  needed: number | null;
  /** The limit it was held to, counted the same way. */
  available: number | null;
  /** The prompt alone, as the provider counted it: the truest sample of our count there is. */
  promptTokens: number | null;
  message: string;
}

type Found = Omit<ContextLengthError, 'message'>;
type Rule = { pattern: RegExp; read: (numbers: number[]) => Found };

const number = '(\\d[\\d,]*)';
const found = (
  provider: Found['provider'],
  needed: number | null,
  available: number | null,
  promptTokens: number | null,
): Found => ({ provider, needed, available, promptTokens });

/** Each provider's wording, most specific first; numbers are read where the wording gives them. */
const rules: Rule[] = [
  // llama.cpp server: {"error":{"type":"exceed_context_size_error","n_prompt_tokens":N,"n_ctx":M}}
  {
    pattern: new RegExp(
      `request \\(${number} tokens\\) exceeds the available context size \\(${number} tokens\\)`,
      'i',
    ),
    read: ([prompt, window]) => found('llama.cpp', prompt!, window!, prompt!),
  },
  {
    pattern: /exceed_context_size_error|exceeds the available context size/i,
    read: () => found('llama.cpp', null, null, null),
  },
  // Anthropic
  {
    pattern: new RegExp(`prompt is too long:\\s*${number} tokens\\s*>\\s*${number}`, 'i'),
    read: ([prompt, limit]) => found('anthropic', prompt!, limit!, prompt!),
  },
  {
    pattern: new RegExp(
      `input length and \`?max_tokens\`? exceed context limit:\\s*${number}\\s*\\+\\s*${number}\\s*>\\s*${number}`,
      'i',
    ),
    read: ([prompt, output, limit]) => found('anthropic', prompt! + output!, limit!, prompt!),
  },
  { pattern: /prompt is too long/i, read: () => found('anthropic', null, null, null) },
  // OpenAI: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000
  // tokens"
  {
    pattern: new RegExp(
      `maximum context length is ${number} tokens\\. However, your messages resulted in ${number} tokens`,
      'i',
    ),
    read: ([limit, prompt]) => found('openai', prompt!, limit!, prompt!),
  },
  // vLLM (and OpenAI's older completions): "However, you requested 122946 tokens (112946 in the messages,
  // 10000 in the completion)"
  {
    pattern: new RegExp(
      `maximum context length is ${number} tokens\\. However, you requested ${number} tokens(?: \\(${number} in the messages)?`,
      'i',
    ),
    read: ([limit, requested, prompt]) => found('vllm', requested!, limit!, prompt ?? null),
  },
  {
    pattern: new RegExp(
      `maximum context length is ${number} tokens\\. However, your request has ${number} input tokens`,
      'i',
    ),
    read: ([limit, prompt]) => found('vllm', prompt!, limit!, prompt!),
  },
  {
    pattern: new RegExp(
      `prompt \\(length ${number}\\) is longer than the maximum model length of ${number}`,
      'i',
    ),
    read: ([prompt, limit]) => found('vllm', prompt!, limit!, prompt!),
  },
  {
    pattern: new RegExp(
      `Input prompt \\(${number} tokens\\) is too long and exceeds limit of ${number}`,
      'i',
    ),
    read: ([prompt, limit]) => found('vllm', prompt!, limit!, prompt!),
  },
  {
    pattern: /context_length_exceeded|maximum context length is/i,
    read: () => found('openai', null, null, null),
  },
  // LM Studio
  {
    pattern: new RegExp(
      `keep the first ${number} tokens when context the overflows\\. However, the model is loaded with context length of only ${number}`,
      'i',
    ),
    read: ([prompt, window]) => found('lm-studio', prompt!, window!, prompt!),
  },
  {
    pattern: new RegExp(`Input length ${number} exceeds context length ${number}`, 'i'),
    read: ([prompt, window]) => found('lm-studio', prompt!, window!, prompt!),
  },
  {
    pattern: new RegExp(`Reached context length of ${number} tokens`, 'i'),
    read: ([window]) => found('lm-studio', null, window!, null),
  },
  {
    pattern: /when context the overflows|context length[^.]{0,40}exceeded/i,
    read: () => found('lm-studio', null, null, null),
  },
  // Ollama: "the input length exceeds the context length"; its runner logs prompt=N limit=M
  {
    pattern: new RegExp(`input exceeds context length.*?prompt=${number}.*?limit=${number}`, 'i'),
    read: ([prompt, window]) => found('ollama', prompt!, window!, prompt!),
  },
  {
    pattern: /input (?:length )?exceeds the context length|input exceeds context length/i,
    read: () => found('ollama', null, null, null),
  },
  {
    pattern: /context window (?:is )?exceeded|exceeds the context window/i,
    read: () => found('unknown', null, null, null),
  },
];

/**
 * Whether a failed model call was refused for its length, and by how much when the provider says.
 * Looks through the error's message, response body and causes, as the AI SDK and fetch nest them.
 */
export function recognizeContextLengthError(error: unknown): ContextLengthError | null {
  const texts = textsOf(error);
  for (const rule of rules) {
    for (const text of texts) {
      const match = rule.pattern.exec(text);
      if (!match) continue;
      const numbers = match
        .slice(1)
        .flatMap((value) => (value === undefined ? [] : [Number(value.replace(/,/g, ''))]));
      const result = { ...rule.read(numbers), message: text };
      return result.provider === 'llama.cpp' && result.needed === null
        ? withLlamaFields(result, texts)
        : result;
    }
  }
  return null;
}

/** llama.cpp puts the counts beside its message, as JSON fields. */
function withLlamaFields(result: ContextLengthError, texts: readonly string[]): ContextLengthError {
  const joined = texts.join('\n');
  const prompt = /"n_prompt_tokens"\s*:\s*(\d+)/.exec(joined)?.[1];
  const window = /"n_ctx"\s*:\s*(\d+)/.exec(joined)?.[1];
  if (prompt === undefined || window === undefined) return result;
  return { ...result, needed: Number(prompt), available: Number(window), promptTokens: Number(prompt) };
}

/** Every string an error carries, following causes and retries a few levels deep. */
function textsOf(error: unknown, depth = 0, into: string[] = []): string[] {
  if (depth > 5 || error === null || error === undefined) return into;
  if (typeof error === 'string') {
    into.push(error);
    return into;
  }
  if (typeof error !== 'object') return into;
  const record = error as Record<string, unknown>;
  // A parsed response body: its fields (llama.cpp's counts) are text to search too.
  if (Object.getPrototypeOf(error) === Object.prototype) into.push(safeJson(error));
  for (const key of ['message', 'responseBody', 'body', 'text']) {
    if (typeof record[key] === 'string') into.push(record[key]);
  }
  if (record.data !== undefined && typeof record.data === 'object') into.push(safeJson(record.data));
  for (const key of ['error', 'cause', 'lastError']) textsOf(record[key], depth + 1, into);
  if (Array.isArray(record.errors)) for (const entry of record.errors) textsOf(entry, depth + 1, into);
  return into;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '';
  }
}
