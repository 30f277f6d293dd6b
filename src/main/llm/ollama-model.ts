import type { LanguageModel } from 'ai';
import type { ModelSettings } from '../../shared/chat-domain';
import { failFast } from './fail-fast-fetch';
import { ModelError } from './llm-types';
import { serverRoot } from './model-list';
import { ollamaSdk } from './provider-sdks';

/** A model behind Ollama's native chat API, `/api/chat`, which takes the window as `options.num_ctx`. */
export async function ollamaLanguageModel(
  settings: ModelSettings,
  apiKey: string | null,
): Promise<LanguageModel> {
  const { createOllama } = await ollamaSdk();
  return createOllama({
    baseURL: `${serverRoot(settings)}/api`,
    // Ollama has no keys of its own; one is for a proxy in front of it.
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    fetch: failingOnErrorLines(settings),
  })(settings.model);
}

/**
 * The per-request options of Ollama's native API: the window the request was planned for and, when the
 * caller reserves room for the answer, its length (the provider maps the SDK's `maxOutputTokens` to a
 * field Ollama ignores).
 */
export function ollamaRequestOptions(numCtx: number, maxOutputTokens: number | undefined) {
  const numPredict = maxOutputTokens === undefined ? {} : { num_predict: maxOutputTokens };
  return { ollama: { options: { num_ctx: numCtx, ...numPredict } } };
}

/**
 * Ollama reports a failure in the middle of a stream (the model runner crashed, memory ran out) as a line
 * `{"error": "…"}`, which the provider drops as unparsable: the answer would end as if complete. This
 * fails the stream with the server's message instead.
 */
function failingOnErrorLines(settings: ModelSettings): typeof fetch {
  const failure = (message: string) =>
    new ModelError(`Ollama at ${settings.baseUrl} failed while answering: ${message}`, 'server');
  return async (input, init) => {
    const response = await failFast()(input, init);
    if (!response.ok || response.body === null) return response;
    const decoder = new TextDecoder();
    let pending = '';
    const checked = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const lines = (pending + decoder.decode(chunk, { stream: true })).split('\n');
          pending = lines.pop() ?? '';
          const reported = lines.map(errorLine).find((message) => message !== null);
          if (reported) controller.error(failure(reported));
          else controller.enqueue(chunk);
        },
        flush(controller) {
          const reported = errorLine(pending + decoder.decode());
          if (reported) controller.error(failure(reported));
        },
      }),
    );
    return new Response(checked, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The message of an NDJSON line that is an error report, else null. */
function errorLine(line: string): string | null {
  if (!line.includes('"error"')) return null;
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed !== 'object' || parsed === null || 'message' in parsed) return null;
    const error = (parsed as { error?: unknown }).error;
    return typeof error === 'string' ? error : null;
  } catch {
    return null;
  }
}
