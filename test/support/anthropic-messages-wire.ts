import type { ChatMessage, ChatRequest, Completion } from './scripted-model-server';

interface Block {
  type?: unknown;
  text?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
}

/**
 * Anthropic's `POST /v1/messages` body as a `ChatRequest`, so one script answers it too: the system
 * blocks become a system message, tool uses become OpenAI tool calls and tool results tool messages.
 * Text blocks keep their fields (`cache_control` among them); `body` is what was sent.
 */
export function fromAnthropicMessages(body: Record<string, unknown>): ChatRequest | string {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required';
  const messages: ChatMessage[] = [];
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : body.system;
  if (Array.isArray(system)) messages.push({ role: 'system', content: system as { type: string }[] });
  for (const message of body.messages as { role: 'user' | 'assistant'; content: string | Block[] }[]) {
    const blocks: Block[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const texts = blocks.filter((block) => block.type === 'text') as { type: string; text?: string }[];
    const uses = blocks.filter((block) => block.type === 'tool_use');
    for (const result of blocks.filter((block) => block.type === 'tool_result')) {
      const content = Array.isArray(result.content)
        ? (result.content as Block[]).map((part) => String(part.text ?? '')).join('')
        : String(result.content ?? '');
      messages.push({ role: 'tool', tool_call_id: String(result.tool_use_id), content });
    }
    if (texts.length === 0 && uses.length === 0) continue;
    messages.push({
      role: message.role,
      content: texts,
      ...(uses.length > 0
        ? {
            tool_calls: uses.map((use) => ({
              id: String(use.id),
              type: 'function' as const,
              function: { name: String(use.name), arguments: JSON.stringify(use.input ?? {}) },
            })),
          }
        : {}),
    });
  }
  return {
    api: 'anthropic',
    model: body.model,
    messages,
    ...(Array.isArray(body.tools) ? { tools: body.tools as unknown[] } : {}),
    stream: body.stream === true,
    body,
  };
}

/**
 * A completion as Anthropic streams it: `message_start` with the prompt's usage (the part read from the
 * cache as `cache_read_input_tokens`), a content block per text and tool use, `message_delta`, `message_stop`.
 */
export function anthropicStreamLines(completion: Completion, cachedTokens: number): string[] {
  const usage = completion.usage;
  const prompt = usage?.prompt_tokens ?? 0;
  const events: object[] = [
    {
      type: 'message_start',
      message: {
        id: completion.id,
        type: 'message',
        role: 'assistant',
        model: completion.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: prompt - cachedTokens,
          output_tokens: 1,
          cache_read_input_tokens: cachedTokens,
          cache_creation_input_tokens: 0,
        },
      },
    },
  ];
  let index = 0;
  if (completion.text !== '') {
    events.push(
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index, delta: { type: 'text_delta', text: completion.text } },
      { type: 'content_block_stop', index },
    );
    index++;
  }
  for (const call of completion.toolCalls) {
    events.push(
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      },
      {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: call.arguments },
      },
      { type: 'content_block_stop', index },
    );
    index++;
  }
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: completion.toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage?.completion_tokens ?? 0 },
    },
    { type: 'message_stop' },
  );
  return events.map(
    (event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`,
  );
}
