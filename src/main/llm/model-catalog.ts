import type { ContextWindow, ModelSettings } from '../../shared/chat-domain';
import { knownContextWindow } from './known-context-windows';
import { ModelError } from './llm-types';
import {
  isOllamaPort,
  isRecord,
  listModels,
  requestJson,
  tokenCount,
  trimmedBaseUrl,
  type FetchFunction,
} from './model-list';
import type { ConnectionReport, ModelInfo } from '../../shared/model-domain';

export { listModels } from './model-list';

/** The figure used when nothing better is known: small enough for any model worth chatting with. */
export const fallbackContextWindow = 8_192;

/** Lists the provider's models and checks that the chosen one is among them. Never throws a provider failure. */
export async function testConnection(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction = fetch,
): Promise<ConnectionReport> {
  let models: ModelInfo[];
  try {
    models = await listModels(settings, apiKey, fetchImpl);
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    const problem = error.kind === 'unreachable' || error.kind === 'auth' ? error.kind : 'server';
    return { ok: false, problem, message: error.message, models: [] };
  }
  const where = settings.baseUrl;
  const count = `${models.length} model${models.length === 1 ? '' : 's'}`;
  const failed = (problem: ConnectionReport['problem'], message: string): ConnectionReport => ({
    ok: false,
    problem,
    message,
    models,
  });
  if (settings.model.trim() === '') {
    return failed('no-model', `Connected to ${where} (${count}), but no model is chosen.${offered(models)}`);
  }
  if (findModel(settings, models) === undefined) {
    const pull = isOllamaPort(settings) ? ` Run "ollama pull ${settings.model}" to download it.` : '';
    return failed('unknown-model', `${where} has no model "${settings.model}".${offered(models)}${pull}`);
  }
  return {
    ok: true,
    problem: null,
    message: `Connected to ${where}: ${count}; ${settings.model} is available.`,
    models,
  };
}

function offered(models: ModelInfo[]): string {
  if (models.length === 0) return ' It offers no models.';
  const shown = models.slice(0, 5).map((model) => model.id);
  const more = models.length > shown.length ? ` and ${models.length - shown.length} more` : '';
  return ` Available: ${shown.join(', ')}${more}.`;
}

/** The listed model `settings` name, allowing for Ollama's implicit `:latest` and Anthropic's aliases. */
function findModel(settings: ModelSettings, models: ModelInfo[]): ModelInfo | undefined {
  const wanted = settings.model;
  const exact = models.find((model) => model.id === wanted || model.id === `${wanted}:latest`);
  if (exact || settings.provider !== 'anthropic') return exact;
  // Anthropic lists dated ids only; `claude-sonnet-4-0` and `claude-3-5-haiku-latest` name the newest one.
  const family = wanted.replace(/-(latest|0)$/, '');
  return models.find((model) => model.id.startsWith(`${family}-`));
}

/**
 * The context window of `settings`' model: the user's override, else the provider's metadata, else the
 * known-families table, else 8,192.
 */
export async function resolveContextWindow(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction = fetch,
): Promise<ContextWindow> {
  return (await resolveWithReach(settings, apiKey, fetchImpl)).window;
}

/** Resolves context windows once per base URL and model for the life of the process. */
export class ContextWindowResolver {
  private readonly cache = new Map<string, Promise<ContextWindow>>();

  constructor(private readonly fetchImpl: FetchFunction = fetch) {}

  /** The context window of `settings`' model; the provider is asked only the first time. */
  resolve(settings: ModelSettings, apiKey: string | null): Promise<ContextWindow> {
    const user = userContextWindow(settings);
    if (user) return Promise.resolve(user);
    const key = JSON.stringify([settings.provider, trimmedBaseUrl(settings), settings.model]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const pending: Promise<ContextWindow> = resolveWithReach(settings, apiKey, this.fetchImpl).then(
      ({ window, reached }) => {
        // A server that was down may have the real figure once it is up: ask again next time.
        if (!reached && this.cache.get(key) === pending) this.cache.delete(key);
        return window;
      },
    );
    this.cache.set(key, pending);
    return pending;
  }

  /** Drops every cached figure, e.g. after the user pulled a new model or changed the server. */
  forget(): void {
    this.cache.clear();
  }
}

async function resolveWithReach(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction,
): Promise<{ window: ContextWindow; reached: boolean }> {
  const user = userContextWindow(settings);
  if (user) return { window: user, reached: true };
  const metadata = await providerContextWindow(settings, apiKey, fetchImpl);
  if (metadata.tokens !== null)
    return { window: { tokens: metadata.tokens, source: 'provider' }, reached: true };
  return { window: offlineContextWindow(settings), reached: metadata.reached };
}

/** The context window known without asking the provider: the override, the known-families table, 8,192. */
export function offlineContextWindow(settings: ModelSettings): ContextWindow {
  const user = userContextWindow(settings);
  if (user) return user;
  const known = knownContextWindow(settings.model);
  return known
    ? { tokens: known, source: 'known-model' }
    : { tokens: fallbackContextWindow, source: 'fallback' };
}

function userContextWindow(settings: ModelSettings): ContextWindow | null {
  const tokens = tokenCount(settings.contextWindow);
  return tokens === null ? null : { tokens, source: 'user' };
}

/** Asks the provider's metadata sources in turn; any failure falls through to the next one. */
async function providerContextWindow(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction,
): Promise<{ tokens: number | null; reached: boolean }> {
  if (settings.model.trim() === '') return { tokens: null, reached: false };
  // Ollama and LM Studio serve their native APIs next to the OpenAI one, at the root without /v1.
  const root = trimmedBaseUrl(settings).replace(/\/v1$/, '');
  const ask = (url: string, body?: unknown) =>
    requestJson(settings, apiKey, { url, method: body === undefined ? 'GET' : 'POST', body }, fetchImpl);
  const listed = async () =>
    findModel(settings, await listModels(settings, apiKey, fetchImpl))?.contextLength ?? null;
  const sources =
    settings.provider === 'anthropic'
      ? [listed]
      : [
          async () => ollamaContextLength(await ask(`${root}/api/show`, { model: settings.model })),
          listed,
          async () => lmStudioContextLength(await ask(`${root}/api/v0/models`), settings.model),
        ];
  let reached = false;
  for (const source of sources) {
    try {
      const tokens = await source();
      reached = true;
      if (tokens !== null) return { tokens, reached };
    } catch (error) {
      // Any other failure is an answer from the server; a refused connection will not differ next time.
      if (error instanceof ModelError && error.kind === 'unreachable') return { tokens: null, reached };
      reached = true;
    }
  }
  return { tokens: null, reached };
}

/** Ollama's `/api/show` names the figure after the architecture: `llama.context_length`, `qwen2.context_length`… */
function ollamaContextLength(body: unknown): number | null {
  const info = isRecord(body) && isRecord(body.model_info) ? body.model_info : {};
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith('.context_length') && tokenCount(value) !== null) return tokenCount(value);
  }
  return null;
}

/** LM Studio's native list: the length the model is loaded with, else the most it supports. */
function lmStudioContextLength(body: unknown, model: string): number | null {
  const data = isRecord(body) && Array.isArray(body.data) ? (body.data as unknown[]) : [];
  const entry = data.find((candidate) => isRecord(candidate) && candidate.id === model);
  if (!isRecord(entry)) return null;
  return tokenCount(entry.loaded_context_length) ?? tokenCount(entry.max_context_length);
}
