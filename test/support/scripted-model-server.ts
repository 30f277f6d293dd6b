import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicStreamLines, fromAnthropicMessages } from './anthropic-messages-wire';
import { fromOllamaChat, ollamaChatBody, ollamaChatLines } from './ollama-chat-wire';

export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Of the prompt, the tokens read from the server's cache: OpenAI's `prompt_tokens_details.cached_tokens`,
   * Anthropic's `cache_read_input_tokens`. Without it neither is sent.
   */
  cachedTokens?: number;
}

export interface ScriptedToolCall {
  name: string;
  /** An object is JSON-stringified; a string is sent as is, so tests can send malformed JSON. */
  arguments: string | Record<string, unknown>;
  id?: string;
}

/**
 * How a streamed reply is cut up: `chunkSize` characters per chunk (default 8), `delayMs` between writes,
 * `eventsPerWrite` stream events in each write (default 1; thousands of tool calls stream in well under
 * a second with a few hundred).
 */
export interface StreamPacing {
  chunkSize?: number;
  delayMs?: number;
  eventsPerWrite?: number;
}

/** One scripted reply of the model. */
export type ScriptedReply =
  /** `usage: null` sends no usage at all, as some servers do. */
  | ({ text: string; usage?: ScriptedUsage | null } & StreamPacing)
  | ({ toolCalls: ScriptedToolCall[]; text?: string; usage?: ScriptedUsage | null } & StreamPacing)
  /** Resets the connection without a response. */
  | { fault: 'refuse' }
  | { fault: 'status'; status: number; body?: unknown; retryAfterSeconds?: number }
  /** Streams `text`, then drops the connection before the finish chunk and `[DONE]`. */
  | ({ fault: 'cut'; text: string } & StreamPacing)
  /** Accepts the request and never answers until the client aborts or the server stops. */
  | { fault: 'hang' }
  /**
   * Streams `text`, then reports `message` inside the stream as the server fails: Ollama's `{"error": …}`
   * line on `/api/chat`, an `error` event on `/v1/chat/completions`.
   */
  | ({ fault: 'stream-error'; text: string; message: string } & StreamPacing);

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function';
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

/**
 * A chat request as the script sees it. Ollama's native `/api/chat` requests are normalised to the OpenAI
 * shape (tool call arguments as JSON strings, `tool_name` as `name`); `body` is what was sent, so a test can
 * read Ollama's `options.num_ctx`.
 */
export interface ChatRequest {
  /**
   * `openai`: `POST /v1/chat/completions`; `ollama`: Ollama's native `POST /api/chat`; `anthropic`:
   * `POST /v1/messages` (streamed only).
   */
  api: 'openai' | 'ollama' | 'anthropic';
  model: string;
  messages: ChatMessage[];
  tools?: unknown[];
  stream: boolean;
  body: Record<string, unknown>;
}

/** Decides the reply from the request; `index` counts chat requests since the script was set, from 0. */
export type ReplyScript = (request: ChatRequest, index: number) => ScriptedReply;

export interface RecordedRequest {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
}

export interface ScriptedModel {
  id: string;
  /**
   * The trained maximum: served on `/v1/models` (OpenRouter style, or llama.cpp's `meta.n_ctx_train`),
   * Ollama's `/api/show` `model_info` and LM Studio's `/api/v0/models`.
   */
  contextLength?: number;
  /** LM Studio's `max_context_length` on `/api/v0/models` only; defaults to `contextLength`. */
  maxContextLength?: number;
  /**
   * The window the model is loaded with, set when it is loaded: LM Studio's `loaded_context_length` and
   * the `context_length` Ollama's `/api/ps` lists.
   */
  loadedContextLength?: number;
  /** `PARAMETER num_ctx` of the model's Modelfile, listed in `parameters` by Ollama's `/api/show`. */
  numCtx?: number;
  /** OpenRouter's `pricing` on `/v1/models`: US dollars per token as strings (`prompt`, `completion`…). */
  pricing?: Record<string, unknown>;
  /** Ollama's `/api/show` `capabilities` ("completion", "vision", …); default completion and tools. */
  capabilities?: string[];
  /** OpenRouter's `architecture.input_modalities` on `/v1/models` ("text", "image"); without it none. */
  inputModalities?: string[];
}

export interface ScriptedModelServer {
  /** e.g. http://127.0.0.1:PORT; OpenAI clients use `${url}/v1` as base URL. */
  url: string;
  requests: RecordedRequest[];
  /** Chat requests that got past the API key check, i.e. the ones the script answered. */
  chatRequests: ChatRequest[];
  /** An array is consumed one reply per chat request; once exhausted every reply is `{ text: 'OK' }`. */
  script(replies: ScriptedReply[] | ReplyScript): void;
  setModels(models: ScriptedModel[]): void;
  /** With a key, `/v1/*` requests without `Authorization: Bearer <key>` get 401; null turns the check off. */
  requireApiKey(key: string | null): void;
  /** With a status, `GET /v1/models` fails with it (and a default error body); null lists the models again. */
  failModelList(status: number | null): void;
  /**
   * The length of the vectors `/v1/embeddings` and `/api/embed` answer with from now on (default 64), as
   * a server that swapped its model under the same name would; a function gives each text's length.
   */
  setEmbeddingDimensions(dimensions: number | ((text: string) => number)): void;
  /** With a status, embedding requests fail with it; null answers them again. */
  failEmbeddings(status: number | null): void;
  /** Each embedding request is answered this long after it arrives, so a run's progress can be watched. */
  setEmbeddingDelay(ms: number): void;
  /** The texts each embedding request asked for, in order (both routes). */
  embeddingInputs(): string[][];
  stop(): Promise<void>;
}

export interface ScriptedModelServerOptions {
  replies?: ScriptedReply[] | ReplyScript;
  models?: ScriptedModel[];
  apiKey?: string | null;
  /** See `failModelList`. */
  modelListStatus?: number | null;
  /** Answers `GET /api/version` as Ollama of this version does; without it the route is missing. */
  ollamaVersion?: string;
  /**
   * Behaves as llama.cpp's server started with this window per slot: `GET /props` gives it as
   * `default_generation_settings.n_ctx`, and `/v1/models` gives `contextLength` as `meta.n_ctx_train`.
   */
  llamaCppContext?: number;
  /** See `setEmbeddingDimensions`. */
  embeddingDimensions?: number;
  /** See `setEmbeddingDelay`. */
  embeddingDelayMs?: number;
  /** Listen on this port (a server started again where a stopped one was); default any free one. */
  port?: number;
}

const roles = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const defaultEmbeddingDimensions = 64;

/**
 * Starts an OpenAI-compatible model server on 127.0.0.1 that answers from a script, with Ollama's native
 * chat and model routes, LM Studio's model list and, when asked, llama.cpp's `/props`.
 */
export async function startScriptedModelServer(
  options: ScriptedModelServerOptions = {},
): Promise<ScriptedModelServer> {
  let script: ScriptedReply[] | ReplyScript = options.replies ?? [];
  let scriptIndex = 0;
  let models: ScriptedModel[] = options.models ?? [{ id: 'scripted-model' }];
  let apiKey = options.apiKey ?? null;
  let modelListStatus = options.modelListStatus ?? null;
  let completionCount = 0;
  let embeddingDimensions: number | ((text: string) => number) =
    options.embeddingDimensions ?? defaultEmbeddingDimensions;
  let embeddingStatus: number | null = null;
  let embeddingDelayMs = options.embeddingDelayMs ?? 0;
  const embeddingInputs: string[][] = [];
  const requests: RecordedRequest[] = [];
  const chatRequests: ChatRequest[] = [];

  const nextReply = (request: ChatRequest): ScriptedReply => {
    const index = scriptIndex++;
    if (typeof script === 'function') return script(request, index);
    return script[index] ?? { text: 'OK' };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const method = req.method ?? 'GET';
    // Recorded before the body arrives so `requests` keeps arrival order.
    const record: RecordedRequest = { path, method, headers: req.headers, body: undefined };
    requests.push(record);
    record.body = parseBody(await readText(req));
    const body = isObject(record.body) ? record.body : {};

    // Ollama's native API has no authentication, so only the OpenAI routes check the key.
    if (path.startsWith('/v1/') && apiKey !== null && req.headers.authorization !== `Bearer ${apiKey}`) {
      return sendJson(res, 401, openAiError('Invalid API key', 'invalid_request_error', 'invalid_api_key'));
    }
    const route = `${method} ${path}`;
    if (route === 'GET /v1/models' && modelListStatus !== null) {
      return answerStatus(res, modelListStatus, undefined);
    }
    if (route === 'GET /v1/models') {
      const data = models.map((model) => ({
        id: model.id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'scripted',
        ...trainedLength(model, options.llamaCppContext !== undefined),
        ...(model.pricing === undefined ? {} : { pricing: model.pricing }),
        ...(model.inputModalities ? { architecture: { input_modalities: model.inputModalities } } : {}),
      }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (route === 'POST /v1/chat/completions') {
      const request = toChatRequest(body);
      if (typeof request === 'string') {
        return sendJson(res, 400, openAiError(request, 'invalid_request_error'));
      }
      chatRequests.push(request);
      return answerChat(req, res, request, nextReply(request), ++completionCount);
    }
    if (route === 'POST /v1/messages') {
      const request = fromAnthropicMessages(body);
      if (typeof request === 'string') {
        return sendJson(res, 400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: request },
        });
      }
      chatRequests.push(request);
      return answerChat(req, res, request, nextReply(request), ++completionCount);
    }
    if (route === 'POST /api/chat') {
      const request = fromOllamaChat(body);
      if (typeof request === 'string') return sendJson(res, 400, { error: request });
      chatRequests.push(request);
      return answerChat(req, res, request, nextReply(request), ++completionCount);
    }
    if (route === 'POST /v1/embeddings' || route === 'POST /api/embed') {
      const ollama = route === 'POST /api/embed';
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      if (!Array.isArray(input) || !input.every((item): item is string => typeof item === 'string')) {
        const message = "'input' must be a string or an array of strings";
        return sendJson(
          res,
          400,
          ollama ? { error: message } : openAiError(message, 'invalid_request_error'),
        );
      }
      embeddingInputs.push(input);
      if (embeddingDelayMs > 0) await sleep(embeddingDelayMs);
      if (embeddingStatus !== null) {
        const failure = defaultErrorBody(embeddingStatus);
        return answerStatus(res, embeddingStatus, ollama ? { error: failure.error.message } : failure);
      }
      const lengthOf = embeddingDimensions;
      const vectors = input.map((text) =>
        embed(text, typeof lengthOf === 'number' ? lengthOf : lengthOf(text)),
      );
      return ollama
        ? answerOllamaEmbed(res, body, input, vectors)
        : answerEmbeddings(res, body, input, vectors);
    }
    if (route === 'GET /api/tags') {
      return sendJson(res, 200, {
        models: models.map((model) => ({ name: model.id, model: model.id, size: 0, digest: '' })),
      });
    }
    if (route === 'POST /api/show') {
      const name = body.model ?? body.name;
      const model = models.find((candidate) => candidate.id === name);
      if (!model) return sendJson(res, 404, { error: `model '${String(name)}' not found` });
      const contextLength =
        model.contextLength === undefined ? {} : { 'llama.context_length': model.contextLength };
      // Ollama aligns the values in a column, one parameter per line.
      const parameters =
        model.numCtx === undefined
          ? {}
          : {
              parameters: `num_ctx                        ${model.numCtx}\nstop                           "<|eot_id|>"`,
            };
      return sendJson(res, 200, {
        ...parameters,
        details: { family: 'llama', format: 'gguf' },
        model_info: { 'general.architecture': 'llama', ...contextLength },
        capabilities: model.capabilities ?? ['completion', 'tools'],
      });
    }
    if (route === 'GET /api/ps') {
      const loaded = models.filter((model) => model.loadedContextLength !== undefined);
      return sendJson(res, 200, {
        models: loaded.map((model) => ({
          name: model.id,
          model: model.id,
          size: 0,
          digest: '',
          details: { family: 'llama', format: 'gguf' },
          expires_at: new Date(Date.now() + 300_000).toISOString(),
          size_vram: 0,
          context_length: model.loadedContextLength,
        })),
      });
    }
    if (route === 'GET /api/version' && options.ollamaVersion !== undefined) {
      return sendJson(res, 200, { version: options.ollamaVersion });
    }
    if (route === 'GET /props' && options.llamaCppContext !== undefined) {
      return sendJson(res, 200, {
        default_generation_settings: { n_ctx: options.llamaCppContext, temperature: 0.8 },
        total_slots: 1,
        model_path: `/models/${models[0]?.id ?? 'model'}.gguf`,
      });
    }
    if (route === 'GET /api/v0/models') {
      return sendJson(res, 200, { object: 'list', data: models.map(lmStudioModel) });
    }
    sendJson(res, 404, openAiError(`Unknown route ${route}`, 'invalid_request_error', 'not_found'));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A throwing ReplyScript is a test bug; answer 500 so the test sees the message instead of a hang.
      const message = error instanceof Error ? error.message : String(error);
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, openAiError(`Scripted model server failed: ${message}`, 'server_error'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    chatRequests,
    script(replies) {
      script = replies;
      scriptIndex = 0;
    },
    setModels(next) {
      models = next;
    },
    requireApiKey(key) {
      apiKey = key;
    },
    failModelList(status) {
      modelListStatus = status;
    },
    setEmbeddingDimensions(dimensions) {
      embeddingDimensions = dimensions;
    },
    failEmbeddings(status) {
      embeddingStatus = status;
    },
    setEmbeddingDelay(ms) {
      embeddingDelayMs = ms;
    },
    embeddingInputs() {
      return embeddingInputs.map((input) => [...input]);
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Hanging and streaming responses would otherwise keep close() waiting.
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The trained maximum as OpenRouter (`context_length`) or llama.cpp (`meta.n_ctx_train`) lists it. */
function trainedLength(model: ScriptedModel, llamaCpp: boolean) {
  if (model.contextLength === undefined) return {};
  return llamaCpp ? { meta: { n_ctx_train: model.contextLength } } : { context_length: model.contextLength };
}

/** A model as LM Studio's native REST API lists it. */
function lmStudioModel(model: ScriptedModel) {
  const max = model.maxContextLength ?? model.contextLength;
  const loaded = model.loadedContextLength;
  return {
    id: model.id,
    object: 'model',
    type: 'llm',
    state: loaded === undefined ? 'not-loaded' : 'loaded',
    ...(max === undefined ? {} : { max_context_length: max }),
    ...(loaded === undefined ? {} : { loaded_context_length: loaded }),
  };
}

/** A text, tool-call, cut or failing reply, normalised to what goes on the wire. */
export interface Completion {
  id: string;
  model: string;
  created: number;
  text: string;
  toolCalls: OutgoingToolCall[];
  /** Null: the server reports no usage. */
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: { cached_tokens: number };
  } | null;
  cut: boolean;
  /** The message of a `stream-error` reply, sent after the text; null otherwise. */
  failure: string | null;
}

async function answerChat(
  req: IncomingMessage,
  res: ServerResponse,
  request: ChatRequest,
  reply: ScriptedReply,
  sequence: number,
): Promise<void> {
  const ollama = request.api === 'ollama';
  if ('fault' in reply) {
    if (reply.fault === 'hang') return;
    if (reply.fault === 'refuse') return void req.socket.resetAndDestroy();
    if (reply.fault === 'status') {
      const body =
        reply.body ?? (ollama ? { error: defaultErrorBody(reply.status).error.message } : undefined);
      return answerStatus(res, reply.status, body, reply.retryAfterSeconds);
    }
    if (reply.fault === 'stream-error' && !request.stream) {
      return answerStatus(
        res,
        500,
        ollama ? { error: reply.message } : openAiError(reply.message, 'server_error'),
      );
    }
  }
  const text = reply.text ?? '';
  const toolCalls = ('toolCalls' in reply ? reply.toolCalls : []).map((call, index) => ({
    id: call.id ?? `call_scripted_${sequence}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  // Tool calls are generated tokens too, so they count towards the default completion tokens.
  const generated = text + toolCalls.map((call) => call.name + call.arguments).join('');
  const scripted = 'usage' in reply ? reply.usage : undefined;
  const promptTokens = scripted?.promptTokens ?? Math.ceil(promptCharacters(request.messages) / 4);
  const completionTokens = scripted?.completionTokens ?? Math.ceil(generated.length / 4);
  const completion: Completion = {
    id: `chatcmpl-scripted-${sequence}`,
    model: request.model,
    created: Math.floor(Date.now() / 1000),
    text,
    toolCalls,
    usage:
      scripted === null
        ? null
        : {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
            ...(scripted?.cachedTokens === undefined
              ? {}
              : { prompt_tokens_details: { cached_tokens: scripted.cachedTokens } }),
          },
    cut: 'fault' in reply && reply.fault === 'cut',
    failure: 'fault' in reply && reply.fault === 'stream-error' ? reply.message : null,
  };
  if (request.api === 'anthropic') {
    const lines = anthropicStreamLines(completion, scripted?.cachedTokens ?? 0);
    await streamLines(res, { 'content-type': 'text/event-stream; charset=utf-8' }, lines, reply);
    return void (completion.cut ? res.destroy() : res.end());
  }
  if (ollama && request.stream) {
    const lines = ollamaChatLines(completion, Math.max(1, reply.chunkSize ?? 8));
    await streamLines(res, { 'content-type': 'application/x-ndjson' }, lines, reply);
    return void (completion.cut ? res.destroy() : res.end());
  }
  if (ollama) return sendWhole(res, JSON.stringify(ollamaChatBody(completion)), completion.cut);
  if (request.stream) return streamCompletion(res, completion, reply);
  return sendCompletion(res, completion);
}

/** Sends a JSON body; a cut one stops halfway and drops the connection. */
async function sendWhole(res: ServerResponse, json: string, cut: boolean): Promise<void> {
  if (!cut) return void res.writeHead(200, { 'content-type': 'application/json' }).end(json);
  res.writeHead(200, { 'content-type': 'application/json' });
  await write(res, json.slice(0, json.length >> 1));
  res.destroy();
}

/** Starts a stream and writes `lines` `eventsPerWrite` at a time, `delayMs` apart. */
async function streamLines(
  res: ServerResponse,
  headers: Record<string, string>,
  lines: string[],
  pacing: StreamPacing,
): Promise<void> {
  res.writeHead(200, headers);
  res.flushHeaders();
  const eventsPerWrite = Math.max(1, pacing.eventsPerWrite ?? 1);
  for (let index = 0; index < lines.length; index += eventsPerWrite) {
    if (index > 0 && pacing.delayMs) await sleep(pacing.delayMs);
    if (res.destroyed) return;
    await write(res, lines.slice(index, index + eventsPerWrite).join(''));
  }
}

async function sendCompletion(res: ServerResponse, completion: Completion): Promise<void> {
  const { id, created, model, text, toolCalls, usage } = completion;
  const message = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    refusal: null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(toolCall) } : {}),
  };
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const choice = { index: 0, message, logprobs: null, finish_reason: finishReason };
  const body = { id, object: 'chat.completion', created, model, choices: [choice], usage };
  return sendWhole(res, JSON.stringify(body), completion.cut);
}

/** The sequence OpenAI sends: role, content pieces, per tool call a header then argument pieces, finish, usage. */
async function streamCompletion(
  res: ServerResponse,
  completion: Completion,
  pacing: StreamPacing,
): Promise<void> {
  const { id, created, model, text, toolCalls, cut, failure } = completion;
  const chunkSize = Math.max(1, pacing.chunkSize ?? 8);
  const chunk = (choices: object[], usage: object | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'fp_scripted',
    choices,
    usage,
  });
  const delta = (fields: object, finish: string | null = null) =>
    chunk([{ index: 0, delta: fields, logprobs: null, finish_reason: finish }]);
  const header = (index: number, call: OutgoingToolCall) => ({
    index,
    ...toolCall({ ...call, arguments: '' }),
  });

  const events: object[] = [];
  const [firstCall] = toolCalls;
  const headerInRoleChunk = text === '' && firstCall !== undefined;
  events.push(
    headerInRoleChunk
      ? delta({ role: 'assistant', content: null, tool_calls: [header(0, firstCall)] })
      : delta({ role: 'assistant', content: '' }),
  );
  for (const piece of split(text, chunkSize)) events.push(delta({ content: piece }));
  toolCalls.forEach((call, index) => {
    if (index > 0 || !headerInRoleChunk) events.push(delta({ tool_calls: [header(index, call)] }));
    // At least two pieces, so a client that keeps only the first fragment fails its test.
    const size = Math.min(chunkSize, Math.max(1, Math.ceil(call.arguments.length / 2)));
    for (const piece of split(call.arguments, size)) {
      events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  if (failure !== null) events.push(openAiError(failure, 'server_error'));
  else if (!cut) {
    events.push(delta({}, toolCalls.length > 0 ? 'tool_calls' : 'stop'), chunk([], completion.usage));
  }

  const headers = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  };
  await streamLines(res, headers, sseLines(events), pacing);
  if (cut) return void res.destroy();
  // A server that failed mid-stream ends it without [DONE].
  if (failure === null) await write(res, 'data: [DONE]\n\n');
  res.end();
}

function sseLines(events: object[]): string[] {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
}

interface OutgoingToolCall {
  id: string;
  name: string;
  arguments: string;
}

function toolCall(call: OutgoingToolCall) {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

function answerStatus(res: ServerResponse, status: number, body: unknown, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.setHeader('retry-after', String(retryAfterSeconds));
  if (typeof body === 'string') {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
    return;
  }
  sendJson(res, status, body ?? defaultErrorBody(status));
}

function defaultErrorBody(status: number) {
  if (status === 401) return openAiError('Invalid API key', 'invalid_request_error', 'invalid_api_key');
  if (status === 429) return openAiError('Rate limit reached', 'requests', 'rate_limit_exceeded');
  if (status >= 500) return openAiError('The server had an error processing your request', 'server_error');
  return openAiError(`Scripted error ${status}`, 'invalid_request_error');
}

function answerEmbeddings(
  res: ServerResponse,
  body: Record<string, unknown>,
  input: string[],
  vectors: number[][],
): void {
  const base64 = body.encoding_format === 'base64';
  const data = vectors.map((vector, index) => {
    const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  const tokens = Math.ceil(input.join('').length / 4);
  sendJson(res, 200, {
    object: 'list',
    data,
    model: typeof body.model === 'string' ? body.model : 'scripted-embedding',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/** Ollama's native `POST /api/embed` answer. */
function answerOllamaEmbed(
  res: ServerResponse,
  body: Record<string, unknown>,
  input: string[],
  vectors: number[][],
): void {
  sendJson(res, 200, {
    model: typeof body.model === 'string' ? body.model : 'scripted-embedding',
    embeddings: vectors,
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: Math.ceil(input.join('').length / 4),
  });
}

/**
 * Sum of one pseudo-random direction per word, so equal texts get equal vectors and texts sharing words
 * point in similar directions (retrieval tests can rank), normalised to unit length.
 */
export function embed(text: string, dimensions = defaultEmbeddingDimensions): number[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  const vector = new Array<number>(dimensions).fill(0);
  const blocks = Array.from({ length: Math.ceil(dimensions / 32) }, (_, block) => block);
  for (const word of words) {
    const bytes = Buffer.concat(
      blocks.map((block) => createHash('sha256').update(`${block}:${word}`).digest()),
    );
    for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] ?? 0) + (bytes[i] ?? 0) / 127.5 - 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function toChatRequest(body: Record<string, unknown>): ChatRequest | string {
  if (typeof body.model !== 'string') return "'model' is required";
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return "'messages' must be a non-empty array";
  for (const message of messages) {
    if (!isObject(message) || typeof message.role !== 'string' || !roles.has(message.role)) {
      return `Invalid message in 'messages': ${JSON.stringify(message)}`;
    }
  }
  const tools = Array.isArray(body.tools) ? { tools: body.tools as unknown[] } : {};
  return {
    api: 'openai',
    model: body.model,
    messages: messages as ChatMessage[],
    ...tools,
    stream: body.stream === true,
    body,
  };
}

function promptCharacters(messages: ChatMessage[]): number {
  let characters = 0;
  for (const { content } of messages) {
    if (typeof content === 'string') characters += content.length;
    else if (Array.isArray(content)) for (const part of content) characters += part.text?.length ?? 0;
  }
  return characters;
}

/** Splits by code points so a chunk never ends inside a surrogate pair. */
function split(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
  return pieces;
}

function openAiError(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Resolves once the data is handed to the socket, or when the client has gone. */
function write(res: ServerResponse, data: string): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    res.once('close', resolve);
    res.write(data, () => {
      res.off('close', resolve);
      resolve();
    });
  });
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
