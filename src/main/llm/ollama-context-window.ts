import type { ContextWindow, ModelSettings } from '../../shared/chat-domain';
import { knownContextWindow } from './known-context-windows';
import { ModelError } from './llm-types';
import { isOllamaPort, isRecord, tokenCount } from './model-list';

/**
 * The `num_ctx` Kasten sends to Ollama's native API when neither the user nor the Modelfile sets one: the
 * trained maximum, at most 8,192. A larger window costs memory for its cache (gigabytes at 128k tokens)
 * and a different one reloads the model; the user raises it in Settings when the machine has room.
 */
export const ollamaDefaultNumCtx = 8_192;

/** Ollama's own window since 0.6.7 on the smallest machines; more memory may get more, as `/api/ps` shows. */
const ollamaServerDefault = 4_096;
/** Before 0.6.7 Ollama ran every model with 2,048 tokens unless told otherwise. */
const olderOllamaServerDefault = 2_048;

/** Sends a GET (without a body) or POST to a path under the server root and parses the JSON answer. */
export type AskServer = (path: string, body?: unknown) => Promise<unknown>;

/**
 * The window Kasten runs a model with over Ollama's native API, from `/api/show`: the Modelfile's
 * `num_ctx`, else Kasten's default. Whatever it is, Kasten sends it as `num_ctx`, so it is the window in force.
 */
export async function nativeOllamaWindow(settings: ModelSettings, ask: AskServer): Promise<ContextWindow> {
  const show = await ask('/api/show', { model: settings.model });
  const modelfile = modelfileNumCtx(show);
  if (modelfile !== null) return { tokens: modelfile, source: 'modelfile' };
  return defaultNativeOllamaWindow(trainedContextLength(show) ?? knownContextWindow(settings.model));
}

/** Kasten's default `num_ctx` for a model trained for `trained` tokens (unknown: null). */
export function defaultNativeOllamaWindow(trained: number | null): ContextWindow {
  return { tokens: Math.min(trained ?? ollamaDefaultNumCtx, ollamaDefaultNumCtx), source: 'ollama-num-ctx' };
}

/**
 * The Ollama version behind an OpenAI-compatible base URL: '' when only the port says it is Ollama, null
 * when it is not Ollama. A server that cannot be reached throws.
 */
export async function ollamaVersion(settings: ModelSettings, ask: AskServer): Promise<string | null> {
  const body = await answerOrNull(ask('/api/version'));
  if (isRecord(body) && typeof body.version === 'string') return body.version;
  return isOllamaPort(settings) ? '' : null;
}

/**
 * The window Ollama runs the model with when it is asked through `/v1`, which cannot set `num_ctx`: the
 * one it has the model loaded with, else the Modelfile's, else Ollama's default — never the trained maximum.
 */
export async function ollamaWindowInForce(
  settings: ModelSettings,
  version: string,
  ask: AskServer,
): Promise<ContextWindow> {
  const loaded = loadedContextLength(await answerOrNull(ask('/api/ps')), settings.model);
  if (loaded !== null) return { tokens: loaded, source: 'ollama-loaded' };
  const modelfile = modelfileNumCtx(await answerOrNull(ask('/api/show', { model: settings.model })));
  if (modelfile !== null) return { tokens: modelfile, source: 'modelfile' };
  const tokens = isBefore(version, [0, 6, 7]) ? olderOllamaServerDefault : ollamaServerDefault;
  return { tokens, source: 'ollama-default' };
}

/** The answer of `request`, or null when the server refused it; a server that cannot be reached throws. */
export async function answerOrNull(request: Promise<unknown>): Promise<unknown> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof ModelError && error.kind === 'unreachable') throw error;
    return null;
  }
}

/** `PARAMETER num_ctx` of the Modelfile, which `/api/show` lists one per line in `parameters`. */
function modelfileNumCtx(show: unknown): number | null {
  const parameters = isRecord(show) && typeof show.parameters === 'string' ? show.parameters : '';
  const value = /^num_ctx\s+(\d+)\s*$/m.exec(parameters)?.[1];
  return value === undefined ? null : tokenCount(Number(value));
}

/** `/api/show` names the trained maximum after the architecture: `llama.context_length`, `qwen2.context_length`… */
function trainedContextLength(show: unknown): number | null {
  const info = isRecord(show) && isRecord(show.model_info) ? show.model_info : {};
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith('.context_length') && tokenCount(value) !== null) return tokenCount(value);
  }
  return null;
}

/** The `context_length` `/api/ps` gives the model, when it is loaded (named with or without `:latest`). */
function loadedContextLength(ps: unknown, model: string): number | null {
  const loaded = isRecord(ps) && Array.isArray(ps.models) ? (ps.models as unknown[]) : [];
  const names = new Set([model, `${model}:latest`]);
  const entry = loaded.find(
    (candidate) =>
      isRecord(candidate) && (names.has(String(candidate.name)) || names.has(String(candidate.model))),
  );
  return isRecord(entry) ? tokenCount(entry.context_length) : null;
}

/** Whether `version` ("0.6.5", "0.12.3-rc1") is older than `than`; an unknown or development one is not. */
function isBefore(version: string, than: readonly number[]): boolean {
  const parts = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number);
  if (!parts || parts.every((part) => part === 0)) return false;
  for (const [index, part] of parts.entries()) {
    const other = than[index] ?? 0;
    if (part !== other) return part < other;
  }
  return false;
}
