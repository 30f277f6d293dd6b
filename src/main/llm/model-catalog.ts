import type { ContextWindow, ContextWindowSource, ModelSettings } from '../../shared/chat-domain';
import type { ConnectionReport, ModelInfo } from '../../shared/model-domain';
import { knownContextWindow } from './known-context-windows';
import { ModelError } from './llm-types';
import {
  isRecord,
  listModels,
  looksLikeOllama,
  requestJson,
  serverRoot,
  tokenCount,
  trimmedBaseUrl,
  type FetchFunction,
} from './model-list';
import {
  defaultNativeOllamaWindow,
  nativeOllamaWindow,
  ollamaVersion,
  ollamaWindowInForce,
  type AskServer,
} from './ollama-context-window';

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
    const pull = looksLikeOllama(settings) ? ` Run "ollama pull ${settings.model}" to download it.` : '';
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
 * The context window of `settings`' model: the user's override, else the window the server runs the model
 * with (for Ollama's native API: the one Kasten sets on each request), else the figure the provider lists,
 * else the known-families table, else 8,192.
 */
export async function resolveContextWindow(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction = fetch,
): Promise<ContextWindow> {
  return (await resolveWithReach(settings, apiKey, fetchImpl)).window;
}

/**
 * Figures that hold only while the server keeps the model loaded as it is now: they are asked again each
 * time rather than cached, so a model Ollama reloads with another window is planned for with that one.
 */
const inForceNow = new Set<ContextWindowSource>(['ollama-loaded', 'ollama-default', 'server-loaded']);

/**
 * Resolves context windows once per base URL and model for the life of the process, except figures that
 * hold only while the model stays loaded as it is, and those of a server that could not be reached.
 */
export class ContextWindowResolver {
  private readonly cache = new Map<string, Promise<ContextWindow>>();

  constructor(
    private readonly fetchImpl: FetchFunction = fetch,
    /** How long the window of a server that could not be reached is taken as the offline figure. */
    private readonly retryUnreachedMs = 30_000,
  ) {}

  /** The context window of `settings`' model; a settled figure is asked for only the first time. */
  resolve(settings: ModelSettings, apiKey: string | null): Promise<ContextWindow> {
    const user = userContextWindow(settings);
    if (user) return Promise.resolve(user);
    const key = JSON.stringify([settings.provider, trimmedBaseUrl(settings), settings.model]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const pending: Promise<ContextWindow> = resolveWithReach(settings, apiKey, this.fetchImpl).then(
      ({ window, reached }) => {
        // A figure that can change is asked for again next time. A server that was down may have the real
        // figure once it is up, but is asked again only after a while: every Send while it is down would
        // otherwise wait for the lookup to fail first (up to its timeout on a server that never answers).
        const forget = () => {
          if (this.cache.get(key) === pending) this.cache.delete(key);
        };
        if (!reached) setTimeout(forget, this.retryUnreachedMs).unref();
        else if (inForceNow.has(window.source)) forget();
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
  const served = await serverContextWindow(settings, apiKey, fetchImpl);
  return { window: served.window ?? offlineContextWindow(settings), reached: served.reached };
}

/**
 * The context window known without asking the provider: the override; for Ollama's native API the default
 * Kasten sends; else the known-families table, else 8,192.
 */
export function offlineContextWindow(settings: ModelSettings): ContextWindow {
  const user = userContextWindow(settings);
  if (user) return user;
  const known = knownContextWindow(settings.model);
  if (settings.provider === 'ollama') return defaultNativeOllamaWindow(known);
  return known
    ? { tokens: known, source: 'known-model' }
    : { tokens: fallbackContextWindow, source: 'fallback' };
}

function userContextWindow(settings: ModelSettings): ContextWindow | null {
  const tokens = tokenCount(settings.contextWindow);
  return tokens === null ? null : { tokens, source: 'user' };
}

type WindowSource = () => Promise<ContextWindow | null>;

/**
 * Asks the server in turn for the window it runs the model with, then for figures it lists; any failure
 * falls through to the next source, a server that cannot be reached ends the search.
 */
async function serverContextWindow(
  settings: ModelSettings,
  apiKey: string | null,
  fetchImpl: FetchFunction,
): Promise<{ window: ContextWindow | null; reached: boolean }> {
  if (settings.model.trim() === '') return { window: null, reached: false };
  const root = serverRoot(settings);
  const ask: AskServer = (path, body) =>
    requestJson(
      settings,
      apiKey,
      { url: `${root}${path}`, method: body === undefined ? 'GET' : 'POST', body },
      fetchImpl,
    );
  const listed: WindowSource = async () => {
    const tokens = findModel(settings, await listModels(settings, apiKey, fetchImpl))?.contextLength ?? null;
    return tokens === null ? null : { tokens, source: 'provider' };
  };
  const sources: WindowSource[] =
    settings.provider === 'anthropic'
      ? [listed]
      : settings.provider === 'ollama'
        ? [() => nativeOllamaWindow(settings, ask)]
        : [
            async () => {
              const version = await ollamaVersion(settings, ask);
              return version === null ? null : ollamaWindowInForce(settings, version, ask);
            },
            async () => llamaCppWindow(await ask('/props')),
            async () => lmStudioWindow(await ask('/api/v0/models'), settings.model),
            listed,
          ];
  let reached = false;
  for (const source of sources) {
    try {
      const window = await source();
      reached = true;
      if (window !== null) return { window, reached };
    } catch (error) {
      // Any other failure is an answer from the server; a refused connection will not differ next time.
      if (error instanceof ModelError && error.kind === 'unreachable') return { window: null, reached };
      reached = true;
    }
  }
  return { window: null, reached };
}

/** llama.cpp's server: the window of each slot, `--ctx-size` divided among `--parallel` slots. */
function llamaCppWindow(props: unknown): ContextWindow | null {
  const settings = isRecord(props) ? props.default_generation_settings : undefined;
  const tokens = isRecord(settings) ? tokenCount(settings.n_ctx) : null;
  return tokens === null ? null : { tokens, source: 'server-loaded' };
}

/** LM Studio's native list: the length the model is loaded with, else the most it supports. */
function lmStudioWindow(body: unknown, model: string): ContextWindow | null {
  const data = isRecord(body) && Array.isArray(body.data) ? (body.data as unknown[]) : [];
  const entry = data.find((candidate) => isRecord(candidate) && candidate.id === model);
  if (!isRecord(entry)) return null;
  const loaded = tokenCount(entry.loaded_context_length);
  if (loaded !== null) return { tokens: loaded, source: 'server-loaded' };
  const max = tokenCount(entry.max_context_length);
  return max === null ? null : { tokens: max, source: 'provider' };
}
