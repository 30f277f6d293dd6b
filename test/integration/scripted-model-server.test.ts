import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  embed as embedVector,
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../support/scripted-model-server';

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments?: string };
}

interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string | null; tool_calls?: ToolCallDelta[] };
    finish_reason: string | null;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    message: {
      role: string;
      content: string | null;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

interface ModelList {
  object: string;
  data: { id: string; object: string; context_length?: number }[];
}

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.stop();
});

const user = (content: string) => [{ role: 'user', content }];

function chat(body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    body: JSON.stringify({ model: 'scripted-model', messages: user('Hi'), ...body }),
    signal: init.signal ?? null,
  });
}

/** Typed view of a JSON body; the assertions that follow check the shape. */
async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

/** Reads a whole body as text, keeping what arrived before a network error. */
async function readAll(response: Response): Promise<{ raw: string; error?: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { raw: raw + decoder.decode() };
      raw += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { raw, error };
  }
}

/**
 * Parses SSE as a strict client would: every event is exactly one `data: ` line and a blank line, the
 * payload is JSON, and nothing follows `[DONE]`.
 */
function parseSse(raw: string): { chunks: Chunk[]; done: boolean } {
  const blocks = raw.split('\n\n');
  expect(blocks.pop(), 'stream ends on an event boundary').toBe('');
  const chunks: Chunk[] = [];
  let done = false;
  for (const block of blocks) {
    expect(done, 'nothing after [DONE]').toBe(false);
    expect(block).toMatch(/^data: [^\n]+$/);
    const payload = block.slice('data: '.length);
    if (payload === '[DONE]') done = true;
    else chunks.push(JSON.parse(payload) as Chunk);
  }
  return { chunks, done };
}

/** Checks the envelope OpenAI puts on every chunk and the order of role, finish and usage chunks. */
function expectOpenAiChunks(chunks: Chunk[], model: string, complete = true): void {
  const [first] = chunks;
  expect(first?.id).toMatch(/^chatcmpl-/);
  for (const chunk of chunks) {
    expect(chunk).toMatchObject({ id: first?.id, object: 'chat.completion.chunk', model });
    expect(Number.isInteger(chunk.created)).toBe(true);
  }
  expect(first?.choices[0]?.delta.role).toBe('assistant');
  const body = complete ? chunks.slice(0, -1) : chunks;
  body.forEach((chunk, position) => {
    expect(chunk.choices).toHaveLength(1);
    expect(chunk.choices[0]?.index).toBe(0);
    expect(chunk.usage).toBeNull();
    const isFinish = complete && position === body.length - 1;
    if (isFinish) expect(chunk.choices[0]?.delta).toEqual({});
    else expect(chunk.choices[0]?.finish_reason).toBeNull();
  });
  if (complete) {
    expect(body.at(-1)?.choices[0]?.finish_reason).toMatch(/^(stop|tool_calls)$/);
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).not.toBeNull();
  }
}

/** Reassembles the streamed message the way an SDK accumulates deltas. */
function assemble(chunks: Chunk[]) {
  let text = '';
  const toolCalls: { id?: string; type?: string; name?: string; arguments: string; pieces: number }[] = [];
  for (const choice of chunks.flatMap((chunk) => chunk.choices)) {
    text += choice.delta.content ?? '';
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = (toolCalls[delta.index] ??= {
        id: delta.id,
        type: delta.type,
        name: delta.function.name,
        arguments: '',
        pieces: 0,
      });
      if (delta.function.arguments) {
        call.arguments += delta.function.arguments;
        call.pieces += 1;
      }
    }
  }
  const finishReason = chunks.flatMap((chunk) => chunk.choices).find((c) => c.finish_reason)?.finish_reason;
  return { text, toolCalls, finishReason, usage: chunks.at(-1)?.usage };
}

describe('scripted model server', () => {
  it('lists the default model, then the models a test sets', async () => {
    const first = await json<ModelList>(fetch(`${server.url}/v1/models`));
    expect(first).toEqual({
      object: 'list',
      data: [{ id: 'scripted-model', object: 'model', created: expect.any(Number), owned_by: 'scripted' }],
    });
    server.setModels([{ id: 'small', contextLength: 4096 }, { id: 'plain' }]);
    const second = await json<ModelList>(fetch(`${server.url}/v1/models`));
    expect(second.data.map((model) => model.id)).toEqual(['small', 'plain']);
    expect(second.data[0]?.context_length).toBe(4096);
    expect(second.data[1]).not.toHaveProperty('context_length');
  });

  it('streams a text reply as OpenAI server-sent events ending in usage and [DONE]', async () => {
    const text = 'Your note [[Gardening]] says to water tomatoes at dawn. ✓ 🍅';
    server.script([{ text, chunkSize: 5 }]);
    const response = await chat({ stream: true, stream_options: { include_usage: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const { raw, error } = await readAll(response);
    expect(error).toBeUndefined();
    const { chunks, done } = parseSse(raw);
    expect(done).toBe(true);
    expectOpenAiChunks(chunks, 'scripted-model');
    const message = assemble(chunks);
    expect(message.text).toBe(text);
    expect(message.finishReason).toBe('stop');
    const contentPieces = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter(Boolean) as string[];
    expect(contentPieces.length).toBeGreaterThan(5);
    for (const piece of contentPieces) expect(Array.from(piece).length).toBeLessThanOrEqual(5);
    expect(message.usage).toEqual({
      prompt_tokens: 1,
      completion_tokens: Math.ceil(text.length / 4),
      total_tokens: 1 + Math.ceil(text.length / 4),
    });
  });

  it('streams tool calls whose arguments reassemble into the scripted JSON', async () => {
    server.script([
      {
        toolCalls: [
          { name: 'read_note', arguments: { path: 'Garden/Tomatoes.md', lines: [1, 20] }, id: 'call_one' },
          { name: 'search_notes', arguments: '{"query": ' },
        ],
      },
    ]);
    const { raw } = await readAll(await chat({ stream: true, tools: [{ type: 'function' }] }));
    const { chunks, done } = parseSse(raw);
    expect(done).toBe(true);
    expectOpenAiChunks(chunks, 'scripted-model');
    expect(chunks[0]?.choices[0]?.delta.content).toBeNull();

    const message = assemble(chunks);
    expect(message.text).toBe('');
    expect(message.finishReason).toBe('tool_calls');
    const [read, search] = message.toolCalls;
    expect(read).toMatchObject({ id: 'call_one', type: 'function', name: 'read_note' });
    expect(JSON.parse(read!.arguments)).toEqual({ path: 'Garden/Tomatoes.md', lines: [1, 20] });
    expect(read!.pieces).toBeGreaterThanOrEqual(2);
    expect(search).toMatchObject({
      id: expect.stringMatching(/^call_/),
      type: 'function',
      name: 'search_notes',
    });
    expect(search!.arguments).toBe('{"query": ');
    expect(search!.pieces).toBeGreaterThanOrEqual(2);

    // After the header only `index` and argument fragments follow, as OpenAI sends them.
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    for (const fragment of fragments.filter((candidate) => candidate.id === undefined)) {
      expect(Object.keys(fragment).sort()).toEqual(['function', 'index']);
      expect(Object.keys(fragment.function)).toEqual(['arguments']);
    }
    expect(fragments.filter((fragment) => fragment.id !== undefined)).toHaveLength(2);
    expect(server.chatRequests[0]?.tools).toEqual([{ type: 'function' }]);
  });

  it('streams text before tool calls when a reply has both', async () => {
    server.script([
      { text: 'Let me look.', toolCalls: [{ name: 'read_note', arguments: { path: 'a.md' } }] },
    ]);
    const { chunks } = parseSse((await readAll(await chat({ stream: true }))).raw);
    expectOpenAiChunks(chunks, 'scripted-model');
    const message = assemble(chunks);
    expect(message.text).toBe('Let me look.');
    expect(message.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['read_note', '{"path":"a.md"}'],
    ]);
    expect(message.finishReason).toBe('tool_calls');
  });

  it('answers without streaming with a chat.completion object', async () => {
    server.script([
      { text: 'Plain answer.', usage: { promptTokens: 11, completionTokens: 3 } },
      { toolCalls: [{ name: 'read_note', arguments: { path: 'a.md' }, id: 'call_x' }] },
    ]);
    const text = await json<Completion>(chat({ stream: false }));
    expect(text).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      model: 'scripted-model',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Plain answer.' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
    });
    expect(text.choices[0]?.message).not.toHaveProperty('tool_calls');

    const tools = await json<Completion>(chat({}));
    expect(tools.choices[0]).toMatchObject({
      message: {
        content: null,
        tool_calls: [
          { id: 'call_x', type: 'function', function: { name: 'read_note', arguments: '{"path":"a.md"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('replies OK once an array script is used up', async () => {
    server.script([{ text: 'first' }]);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await json<Completion>(chat({}))).choices[0]?.message.content);
    expect(answers).toEqual(['first', 'OK', 'OK']);
  });

  it('lets a script function see the messages and the call index', async () => {
    const seen: { index: number; last: string | null | undefined }[] = [];
    server.script((request, index) => {
      const last = request.messages.at(-1);
      seen.push({ index, last: typeof last?.content === 'string' ? last.content : undefined });
      if (last?.role === 'tool') return { text: `The note says: ${String(last.content)}` };
      return { toolCalls: [{ name: 'read_note', arguments: { path: 'a.md' }, id: 'call_a' }] };
    });
    const first = await json<Completion>(chat({ messages: user('What is in a.md?') }));
    expect(first.choices[0]?.message.tool_calls?.[0]?.id).toBe('call_a');
    const messages = [
      ...user('What is in a.md?'),
      { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls },
      { role: 'tool', tool_call_id: 'call_a', content: 'tomatoes' },
    ];
    const second = await json<Completion>(chat({ messages }));
    expect(second.choices[0]?.message.content).toBe('The note says: tomatoes');
    expect(seen).toEqual([
      { index: 0, last: 'What is in a.md?' },
      { index: 1, last: 'tomatoes' },
    ]);
    expect(server.chatRequests.map((request) => request.messages.length)).toEqual([1, 3]);
    expect(server.chatRequests[1]?.body.messages).toEqual(messages);
  });

  it('answers 500 with the message when a script function throws', async () => {
    server.script(() => {
      throw new Error('no reply scripted for this prompt');
    });
    const response = await chat({});
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('no reply scripted for this prompt') },
    });
  });

  it('rejects requests without the required API key with 401', async () => {
    server.requireApiKey('sk-test');
    const missing = await chat({});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      error: { message: 'Invalid API key', type: 'invalid_request_error' },
    });
    expect((await chat({}, { headers: { authorization: 'Bearer sk-wrong' } })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(401);
    const allowed = await chat({}, { headers: { authorization: 'Bearer sk-test' } });
    expect(allowed.status).toBe(200);
    expect(server.chatRequests).toHaveLength(1);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
      'Bearer sk-wrong',
      undefined,
      'Bearer sk-test',
    ]);
  });

  it('sends scripted error statuses, with retry-after on 429', async () => {
    server.script([
      { fault: 'status', status: 429, retryAfterSeconds: 7 },
      { fault: 'status', status: 500 },
      { fault: 'status', status: 400, body: { error: { message: 'context too long' } } },
    ]);
    const limited = await chat({ stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    const failed = await chat({});
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { type: 'server_error' } });
    const custom = await chat({});
    expect(custom.status).toBe(400);
    expect(await custom.json()).toEqual({ error: { message: 'context too long' } });
  });

  it('cuts a stream short without a finish chunk or [DONE]', async () => {
    server.script([{ fault: 'cut', text: 'The answer is forty', chunkSize: 4 }]);
    const response = await chat({ stream: true });
    expect(response.status).toBe(200);
    const { raw, error } = await readAll(response);
    expect(error).toBeDefined();
    const { chunks, done } = parseSse(raw);
    expect(done).toBe(false);
    expectOpenAiChunks(chunks, 'scripted-model', false);
    expect(assemble(chunks).text).toBe('The answer is forty');
    expect(assemble(chunks).finishReason).toBeUndefined();
  });

  it('reports a stream-error fault after the text: an error event on /v1, an error line on /api/chat', async () => {
    const fault = { fault: 'stream-error', text: 'Half', message: 'runner stopped' } as const;
    server.script([fault, fault]);
    const { raw } = await readAll(await chat({ stream: true }));
    const { chunks, done } = parseSse(raw);
    expect(done).toBe(false);
    expect(chunks.at(-1)).toEqual({
      error: { message: 'runner stopped', type: 'server_error', param: null, code: null },
    });
    const native = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'scripted-model', messages: user('Hi') }),
    });
    const lines = (await native.text()).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown).at(-1)).toEqual({ error: 'runner stopped' });
  });

  it('resets the connection on refuse, and keeps serving afterwards', async () => {
    server.script([{ fault: 'refuse' }, { text: 'back' }]);
    await expect(chat({})).rejects.toThrow(TypeError);
    const next = await json<Completion>(chat({}));
    expect(next.choices[0]?.message.content).toBe('back');
  });

  it('hangs until the client aborts', async () => {
    server.script([{ fault: 'hang' }]);
    const controller = new AbortController();
    const pending = chat({ stream: true }, { signal: controller.signal });
    await expect.poll(() => server.chatRequests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops promptly with hanging and slowly streaming requests open', async () => {
    server.script([{ fault: 'hang' }, { text: 'x'.repeat(200), chunkSize: 1, delayMs: 50 }]);
    const hanging = chat({}).catch((error: unknown) => error);
    const streaming = await chat({ stream: true });
    const reading = readAll(streaming);
    await server.stop();
    expect(await hanging).toBeInstanceOf(TypeError);
    const { raw, error } = await reading;
    expect(error).toBeDefined();
    expect(parseSse(raw).done).toBe(false);
  });

  it('rejects a chat request without messages with 400', async () => {
    const response = await chat({ messages: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(server.chatRequests).toHaveLength(0);
  });

  it('embeds text deterministically as unit vectors, in float or base64', async () => {
    type Embeddings = {
      object: string;
      model: string;
      data: { index: number; embedding: number[] | string }[];
    };
    const embed = (input: string | string[], format?: string) =>
      json<Embeddings>(
        fetch(`${server.url}/v1/embeddings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'embedder', input, encoding_format: format }),
        }),
      );
    const first = await embed(['tomato garden', 'tomato garden', 'tax return', 'tomato soup']);
    expect(first).toMatchObject({
      object: 'list',
      model: 'embedder',
      usage: { prompt_tokens: expect.any(Number) },
    });
    expect(first.data.map((item) => item.index)).toEqual([0, 1, 2, 3]);
    const [a, b, c, d] = first.data.map((item) => item.embedding as number[]);
    expect(a).toHaveLength(64);
    for (const vector of [a!, c!, d!]) expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    // Texts sharing a word point closer together, so retrieval tests can rank.
    const cosine = (x: number[], y: number[]) => x.reduce((sum, value, i) => sum + value * y[i]!, 0);
    expect(cosine(a!, d!)).toBeGreaterThan(cosine(a!, c!));
    expect((await embed('tomato garden')).data[0]?.embedding).toEqual(a);

    const encoded = await embed('tomato garden', 'base64');
    const bytes = Buffer.from(encoded.data[0]?.embedding as string, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, 64));
    decoded.forEach((value, i) => expect(value).toBeCloseTo(a![i]!, 6));
  });

  it("answers Ollama's /api/embed with the same vectors, counts the inputs, and changes length when told", async () => {
    const embed = (input: string | string[]) =>
      json<{ model: string; embeddings: number[][]; prompt_eval_count: number }>(
        fetch(`${server.url}/api/embed`, {
          method: 'POST',
          body: JSON.stringify({ model: 'nomic-embed-text', input }),
        }),
      );
    const ollama = await embed(['tomato garden', 'tax return']);
    expect(ollama).toMatchObject({ model: 'nomic-embed-text', prompt_eval_count: expect.any(Number) });
    expect(ollama.embeddings[0]).toEqual(embedVector('tomato garden'));
    expect(ollama.embeddings[1]).toHaveLength(64);

    server.setEmbeddingDimensions(32);
    expect((await embed('tomato garden')).embeddings[0]).toHaveLength(32);
    server.failEmbeddings(503);
    const failed = await fetch(`${server.url}/api/embed`, {
      method: 'POST',
      body: JSON.stringify({ model: 'nomic-embed-text', input: 'x' }),
    });
    expect(failed.status).toBe(503);
    expect(server.embeddingInputs()).toEqual([['tomato garden', 'tax return'], ['tomato garden'], ['x']]);
  });

  it('answers the Ollama tags and show endpoints with the context length', async () => {
    server.setModels([{ id: 'llama3.2:3b', contextLength: 131072 }]);
    const tags = await json<{ models: unknown[] }>(fetch(`${server.url}/api/tags`));
    expect(tags.models).toEqual([
      expect.objectContaining({ name: 'llama3.2:3b', model: 'llama3.2:3b', size: 0 }),
    ]);
    const show = (model: string) =>
      fetch(`${server.url}/api/show`, { method: 'POST', body: JSON.stringify({ model }) });
    const known = await json<{ model_info: unknown }>(show('llama3.2:3b'));
    expect(known.model_info).toEqual({ 'general.architecture': 'llama', 'llama.context_length': 131072 });
    const unknown = await show('mistral');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toHaveProperty('error');
  });

  it("streams Ollama's native /api/chat as NDJSON, with tool arguments as objects and the counts at the end", async () => {
    server.script([
      { text: 'Hello there', chunkSize: 6, usage: { promptTokens: 12, completionTokens: 3 } },
      { toolCalls: [{ id: 'call-1', name: 'read_note', arguments: { note: 'A' } }] },
    ]);
    const ollamaChat = (body: object) =>
      fetch(`${server.url}/api/chat`, {
        method: 'POST',
        body: JSON.stringify({ model: 'scripted-model', options: { num_ctx: 8192 }, ...body }),
      });
    const text = await ollamaChat({ messages: user('Hi') });
    expect(text.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await text.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => (line.message as { content: string }).content)).toEqual([
      'Hello ',
      'there',
      '',
    ]);
    expect(lines.at(-1)).toMatchObject({
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 12,
      eval_count: 3,
    });
    expect(lines.slice(0, -1).every((line) => line.done === false)).toBe(true);

    const history = [
      { role: 'user', content: 'Read A' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'read_note', arguments: { note: 'A' } } }],
      },
      { role: 'tool', content: 'A says hi', tool_name: 'read_note' },
    ];
    const whole = await json<{ message: { tool_calls: unknown[] }; done: boolean }>(
      ollamaChat({ messages: history, stream: false }),
    );
    expect(whole.done).toBe(true);
    expect(whole.message.tool_calls).toEqual([
      { id: 'call-1', function: { index: 0, name: 'read_note', arguments: { note: 'A' } } },
    ]);
    // Recorded in the OpenAI shape the scripts read, with the body as sent.
    expect(server.chatRequests[1]).toMatchObject({
      api: 'ollama',
      stream: false,
      body: { options: { num_ctx: 8192 } },
      messages: [
        { role: 'user', content: 'Read A' },
        {
          role: 'assistant',
          tool_calls: [{ type: 'function', function: { name: 'read_note', arguments: '{"note":"A"}' } }],
        },
        { role: 'tool', content: 'A says hi', name: 'read_note' },
      ],
    });
  });

  it('answers /api/ps, /api/version and /props only as the server it is told to be', async () => {
    server.setModels([
      { id: 'loaded', loadedContextLength: 8192 },
      { id: 'idle', numCtx: 16384 },
    ]);
    const ps = await json<{ models: unknown[] }>(fetch(`${server.url}/api/ps`));
    expect(ps.models).toEqual([expect.objectContaining({ name: 'loaded', context_length: 8192 })]);
    const show = await json<{ parameters: string }>(
      fetch(`${server.url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'idle' }) }),
    );
    expect(show.parameters).toMatch(/^num_ctx +16384$/m);
    expect((await fetch(`${server.url}/api/version`)).status).toBe(404);
    expect((await fetch(`${server.url}/props`)).status).toBe(404);

    const other = await startScriptedModelServer({ ollamaVersion: '0.12.6', llamaCppContext: 4096 });
    try {
      expect(await json(fetch(`${other.url}/api/version`))).toEqual({ version: '0.12.6' });
      const props = await json<{ default_generation_settings: { n_ctx: number } }>(
        fetch(`${other.url}/props`),
      );
      expect(props.default_generation_settings.n_ctx).toBe(4096);
    } finally {
      await other.stop();
    }
  });

  it('records every request in order and answers unknown routes with 404', async () => {
    const missing = await fetch(`${server.url}/v1/unknown`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toHaveProperty('error.message');
    await chat({ temperature: 0 });
    expect(server.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /v1/unknown',
      'POST /v1/chat/completions',
    ]);
    expect(server.requests[0]?.body).toBeUndefined();
    expect(server.requests[1]?.body).toMatchObject({ model: 'scripted-model', temperature: 0 });
    expect(server.requests[1]?.headers['content-type']).toBe('application/json');
    expect(server.chatRequests[0]).toMatchObject({
      model: 'scripted-model',
      stream: false,
      messages: user('Hi'),
    });
  });
});
