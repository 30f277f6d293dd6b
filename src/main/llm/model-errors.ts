import { APICallError, RetryError } from 'ai';
import type { ModelSettings } from '../../shared/chat-domain';
import { ServerDownError } from './fail-fast-fetch';
import { ModelError } from './llm-types';

/** The innermost cause of an error (fetch wraps the socket error, retries wrap the last attempt). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    chain.push(current);
    current = RetryError.isInstance(current) ? current.lastError : (current as { cause?: unknown }).cause;
  }
  return chain;
}

function codeOf(error: unknown): string {
  if (error instanceof ServerDownError) return error.downCode;
  return String((error as { code?: unknown } | null)?.code ?? '');
}

/** Why a connection failed, in words: the user sees these, never the system's error codes. */
const unreachableReasons = new Map([
  ['ECONNREFUSED', 'nothing is listening there; is it running?'],
  ['ENOTFOUND', 'its host name was not found; check the base URL.'],
  ['EAI_AGAIN', 'its host name could not be looked up; check the network and the base URL.'],
  ['EHOSTUNREACH', 'there is no network route to it.'],
  ['ENETUNREACH', 'there is no network route to it.'],
]);

/** Turns whatever a provider call threw into a sentence that says what is wrong and where. */
export function describeModelError(
  error: unknown,
  settings: ModelSettings,
  server: 'model server' | 'embedding server' = 'model server',
): ModelError {
  if (error instanceof ModelError) return error;
  const chain = causes(error);
  const where = settings.baseUrl;
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  const tried = attempts > 1 ? ` (tried ${attempts} times)` : '';
  const api = chain.find((entry) => APICallError.isInstance(entry));
  if (api?.statusCode !== undefined && api.statusCode < 400) {
    return new ModelError(
      `The answer from ${where} was cut off mid-way: the connection closed.`,
      'stream-cut',
    );
  }
  if (api?.statusCode !== undefined) {
    const status = api.statusCode;
    const detail = providerMessage(api.responseBody) ?? api.message;
    if (status === 401 || status === 403) {
      return new ModelError(
        `The ${server} at ${where} rejected the API key (${status}): ${detail}. Check the key in Settings` +
          (settings.apiKeyEnv ? ` or the ${settings.apiKeyEnv} environment variable.` : '.'),
        'auth',
      );
    }
    if (status === 404) {
      return new ModelError(
        `The ${server} at ${where} does not know the model "${settings.model}" (404): ${detail}.`,
        'bad-request',
      );
    }
    if (status === 429) {
      return new ModelError(
        `The ${server} at ${where} is rate-limiting requests (429)${tried}: ${detail}. Wait a moment and retry.`,
        'rate-limit',
      );
    }
    if (status >= 500) {
      return new ModelError(`The ${server} at ${where} failed with ${status}${tried}: ${detail}.`, 'server');
    }
    return new ModelError(
      `The ${server} at ${where} refused the request (${status}): ${detail}.`,
      'bad-request',
    );
  }
  const codes = chain.map(codeOf);
  const code = codes.find((entry) => entry === 'ECONNRESET' || unreachableReasons.has(entry));
  if (code === 'ECONNRESET') {
    return new ModelError(`The connection to the ${server} at ${where} was dropped${tried}.`, 'stream-cut');
  }
  if (code !== undefined) {
    return new ModelError(
      `Cannot reach the ${server} at ${where}${tried}: ${unreachableReasons.get(code)}`,
      'unreachable',
    );
  }
  const messages = chain.map((entry) => (entry instanceof Error ? entry.message : String(entry)));
  if (messages.some((message) => /terminated|other side closed|premature close|aborted/i.test(message))) {
    return new ModelError(
      `The answer from ${where} was cut off mid-way: the connection closed.`,
      'stream-cut',
    );
  }
  if (messages.some((message) => /fetch failed/i.test(message))) {
    return new ModelError(`Cannot reach the ${server} at ${where}${tried}; is it running?`, 'unreachable');
  }
  return new ModelError(
    `The call to the ${server} at ${where} failed: ${messages[0] ?? 'unknown error'}.`,
    'other',
  );
}

function providerMessage(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const message =
      typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    return message ?? null;
  } catch {
    return body.slice(0, 200);
  }
}
