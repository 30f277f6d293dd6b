import type { ChatMessage, ChatRequest, Completion } from './scripted-model-server';

const roles = new Set(['system', 'user', 'assistant', 'tool']);

interface OllamaToolCall {
  id?: string;
  function?: { name?: unknown; arguments?: unknown };
}

/**
 * Ollama's `POST /api/chat` body as a `ChatRequest` in the OpenAI shape, so one script answers both APIs:
 * tool call arguments (JSON objects on this API) become JSON strings, `tool_name` becomes `name`. Ollama
 * streams unless `stream` is false.
 */
export function fromOllamaChat(body: Record<string, unknown>): ChatRequest | string {
  if (typeof body.model !== 'string') return 'model is required';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages must be a non-empty array';
  const normalized: ChatMessage[] = [];
  for (const message of messages as unknown[]) {
    if (!isObject(message) || typeof message.role !== 'string' || !roles.has(message.role)) {
      return `invalid message: ${JSON.stringify(message)}`;
    }
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as OllamaToolCall[]) : [];
    normalized.push({
      role: message.role as ChatMessage['role'],
      content: typeof message.content === 'string' ? message.content : '',
      ...(calls.length > 0
        ? {
            tool_calls: calls.map((call, index) => ({
              id: call.id ?? `call_${index}`,
              type: 'function' as const,
              function: {
                name: String(call.function?.name),
                arguments: JSON.stringify(call.function?.arguments ?? {}),
              },
            })),
          }
        : {}),
      ...(typeof message.tool_call_id === 'string' ? { tool_call_id: message.tool_call_id } : {}),
      ...(typeof message.tool_name === 'string' ? { name: message.tool_name } : {}),
    });
  }
  return {
    api: 'ollama',
    model: body.model,
    messages: normalized,
    ...(Array.isArray(body.tools) ? { tools: body.tools as unknown[] } : {}),
    stream: body.stream !== false,
    body,
  };
}

/**
 * The NDJSON lines Ollama streams: the text in pieces, the tool calls whole in one chunk, then a `done`
 * chunk with the token counts — or, for a failing reply, an `{"error": …}` line, or nothing for a cut one.
 */
export function ollamaChatLines(completion: Completion, chunkSize: number): string[] {
  const chunks: object[] = pieces(completion.text, chunkSize).map((content) =>
    chunk(completion, { content }),
  );
  if (completion.toolCalls.length > 0) {
    chunks.push(chunk(completion, { content: '', tool_calls: completion.toolCalls.map(ollamaToolCall) }));
  }
  if (completion.failure !== null) chunks.push({ error: completion.failure });
  else if (!completion.cut) chunks.push(doneChunk(completion, { content: '' }));
  return chunks.map((line) => `${JSON.stringify(line)}\n`);
}

/** The whole answer of a request with `stream: false`. */
export function ollamaChatBody(completion: Completion): object {
  const toolCalls = completion.toolCalls.map(ollamaToolCall);
  return doneChunk(completion, {
    content: completion.text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  });
}

function chunk(completion: Completion, message: object) {
  const createdAt = new Date(completion.created * 1000).toISOString();
  return {
    model: completion.model,
    created_at: createdAt,
    message: { role: 'assistant', ...message },
    done: false,
  };
}

function doneChunk(completion: Completion, message: object) {
  return {
    ...chunk(completion, message),
    done: true,
    done_reason: 'stop',
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: completion.usage?.prompt_tokens,
    prompt_eval_duration: 0,
    eval_count: completion.usage?.completion_tokens,
    eval_duration: 0,
  };
}

/** Arguments go as a JSON object; a script's malformed JSON string goes as it is. */
function ollamaToolCall(call: Completion['toolCalls'][number], index: number) {
  let parsed: unknown = call.arguments;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    // Kept as the string: Ollama itself never sends one, which is what a test of that would check.
  }
  return { id: call.id, function: { index, name: call.name, arguments: parsed } };
}

function pieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const result: string[] = [];
  for (let i = 0; i < points.length; i += size) result.push(points.slice(i, i + size).join(''));
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
