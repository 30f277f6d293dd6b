import type { ModelSettings } from '../../shared/chat-domain';
import type { ModelInfo } from '../../shared/model-domain';
import { ModelError } from './llm-types';

/** How long one catalog request may take before the server counts as unreachable. */
export const catalogTimeoutMs = 5_000;

export type FetchFunction = typeof fetch;

export interface JsonRequest {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  signal?: AbortSignal;
}

/** Lists the models `settings`' provider offers, sorted by id. Failures are `ModelError`s naming the URL. */
export async function listModels(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction = fetch,
  signal?: AbortSignal,
): Promise<ModelInfo[]> {
  if (settings.provider === 'ollama') return listOllamaModels(settings, apiKey, fetchImpl, signal);
  // Anthropic pages its list 20 at a time by default.
  const query = settings.provider === 'anthropic' ? '?limit=1000' : '';
  const url = `${trimmedBaseUrl(settings)}/models${query}`;
  const body = await requestJson(settings, apiKey, { url, signal }, fetchImpl);
  // Older Ollama versions answer `data: null` when no model is pulled.
  const data = isRecord(body) ? (body.data === null ? [] : body.data) : undefined;
  if (!Array.isArray(data)) {
    throw new ModelError(
      `${settings.baseUrl} did not answer GET /models with a list of models. Check the base URL.`,
      'bad-request',
    );
  }
  return sortedById(data.flatMap(toModelInfo));
}

/** Ollama's native list, `/api/tags`: names only; the window comes from `/api/show`. */
async function listOllamaModels(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction,
  signal?: AbortSignal,
): Promise<ModelInfo[]> {
  const url = `${serverRoot(settings)}/api/tags`;
  const body = await requestJson(settings, apiKey, { url, signal }, fetchImpl);
  const models = isRecord(body) ? (body.models ?? []) : undefined;
  if (!Array.isArray(models)) {
    throw new ModelError(
      `${settings.baseUrl} did not answer GET /api/tags with a list of models. Is it Ollama?`,
      'bad-request',
    );
  }
  return sortedById(
    models.flatMap((entry: unknown) => {
      const name = isRecord(entry) ? (entry.name ?? entry.model) : undefined;
      return typeof name === 'string' ? [{ id: name, contextLength: null }] : [];
    }),
  );
}

function sortedById(models: ModelInfo[]): ModelInfo[] {
  return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function toModelInfo(entry: unknown): ModelInfo[] {
  if (!isRecord(entry) || typeof entry.id !== 'string') return [];
  // OpenRouter says `context_length`, LM Studio `max_context_length`, llama.cpp `meta.n_ctx_train`.
  const contextLength =
    tokenCount(entry.context_length) ??
    tokenCount(entry.max_context_length) ??
    (isRecord(entry.meta) ? tokenCount(entry.meta.n_ctx_train) : null);
  return [{ id: entry.id, contextLength }];
}

/** Sends one JSON request with the provider's credentials and a timeout; failures become `ModelError`s. */
export async function requestJson(
  settings: ModelSettings,
  apiKey: string | null,
  request: JsonRequest,
  fetchImpl: FetchFunction = fetch,
): Promise<unknown> {
  if (!URL.canParse(request.url)) {
    throw new ModelError(`"${settings.baseUrl}" is not a valid URL. Check the base URL.`, 'unreachable');
  }
  const timeout = AbortSignal.timeout(catalogTimeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(settings, apiKey) };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetchImpl(request.url, {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal,
    });
    if (!response.ok) throw refusal(settings, apiKey, response.status, await response.text());
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ModelError(
        `${settings.baseUrl} did not answer ${new URL(request.url).pathname} with JSON. Check the base URL.`,
        'bad-request',
      );
    }
  } catch (error) {
    if (error instanceof ModelError) throw error;
    // The caller's own cancellation is not something wrong with the server.
    request.signal?.throwIfAborted();
    throw unreachable(settings, error);
  }
}

function authHeaders(settings: ModelSettings, apiKey: string | null): Record<string, string> {
  if (settings.provider === 'anthropic') {
    return { 'anthropic-version': '2023-06-01', ...(apiKey ? { 'x-api-key': apiKey } : {}) };
  }
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

function refusal(settings: ModelSettings, apiKey: string | null, status: number, body: string): ModelError {
  const where = settings.baseUrl;
  const detail = errorDetail(body);
  const said = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) {
    const variable = settings.apiKeyEnv;
    if (!apiKey) {
      const fix = variable ? `set the ${variable} environment variable` : 'enter one in Settings';
      return new ModelError(`${where} asks for an API key (${status}) and none was sent: ${fix}.`, 'auth');
    }
    const fix = variable ? `in Settings or the ${variable} environment variable` : 'in Settings';
    return new ModelError(`${where} rejected the API key (${status})${said}. Check the key ${fix}.`, 'auth');
  }
  if (status === 429) {
    return new ModelError(
      `${where} is rate-limiting requests (429)${said}. Wait a moment and retry.`,
      'rate-limit',
    );
  }
  if (status >= 500) return new ModelError(`${where} failed with ${status}${said}.`, 'server');
  if (status === 404) {
    const hint =
      settings.provider === 'openai-compatible'
        ? ' (OpenAI-compatible servers usually end in /v1)'
        : settings.provider === 'ollama'
          ? " (Ollama's native API is at the server root, e.g. http://127.0.0.1:11434)"
          : '';
    return new ModelError(
      `${where} answered 404 Not Found${said}. Check the base URL${hint}.`,
      'bad-request',
    );
  }
  return new ModelError(`${where} refused the request (${status})${said}.`, 'bad-request');
}

/** Says in words why the server could not be reached: refused, unknown host, no answer in time. */
function unreachable(settings: ModelSettings, error: unknown): ModelError {
  const url = new URL(trimmedBaseUrl(settings));
  const running = looksLikeOllama(settings) ? 'Is Ollama running?' : 'Is the server running?';
  const name = error instanceof Error ? error.name : '';
  const code = errorCodes(error).find((entry) => entry !== '') ?? '';
  let reason: string;
  if (name === 'TimeoutError') reason = `no answer within ${catalogTimeoutMs / 1000} seconds. ${running}`;
  else if (code === 'ECONNREFUSED') reason = `connection refused. ${running}`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    reason = `the host name "${url.hostname}" was not found. Check the base URL.`;
  } else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') reason = 'no route to the host.';
  else if (code === 'ECONNRESET') reason = `the connection was reset. ${running}`;
  else if (/CERT|SSL|TLS/.test(code)) reason = `its TLS certificate was not accepted (${code}).`;
  else reason = `${code || (error instanceof Error ? error.message : String(error))}.`;
  return new ModelError(`Cannot reach ${settings.baseUrl}: ${reason}`, 'unreachable');
}

/** The `code`s along an error's causes (fetch wraps the socket error; dual-stack connects aggregate). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 12; seen++) {
    const current = queue.shift();
    if (!isRecord(current)) continue;
    if (typeof current.code === 'string') codes.push(current.code);
    queue.push(current.cause, ...(Array.isArray(current.errors) ? current.errors : []));
  }
  return codes;
}

function errorDetail(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (!isRecord(parsed)) return null;
    const error = parsed.error;
    const message = isRecord(error) ? error.message : (error ?? parsed.message);
    return typeof message === 'string' ? message : null;
  } catch {
    return body.trim().slice(0, 200) || null;
  }
}

/** Ollama's default port: the one hint that the server is Ollama before it answers. */
export function isOllamaPort(settings: ModelSettings): boolean {
  return URL.canParse(settings.baseUrl) && new URL(settings.baseUrl).port === '11434';
}

/** The settings name Ollama: its native API, or its OpenAI-compatible one on Ollama's port. */
export function looksLikeOllama(settings: ModelSettings): boolean {
  return settings.provider === 'ollama' || isOllamaPort(settings);
}

/**
 * Where a server's own API lives: Ollama and LM Studio serve theirs at the root, beside `/v1`. For the
 * native Ollama provider a base URL typed with `/api` or `/v1` is taken to mean the same server.
 */
export function serverRoot(settings: ModelSettings): string {
  const base = trimmedBaseUrl(settings);
  return settings.provider === 'ollama' ? base.replace(/\/(api|v1)$/, '') : base.replace(/\/v1$/, '');
}

/** The base URL without a trailing slash, so paths can be appended. */
export function trimmedBaseUrl(settings: ModelSettings): string {
  return settings.baseUrl.replace(/\/+$/, '');
}

/** A positive whole number of tokens, or null. */
export function tokenCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
