import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { ServerDownError } from '../../../src/main/llm/fail-fast-fetch';
import { describeModelError } from '../../../src/main/llm/model-errors';
import type { ModelSettings } from '../../../src/shared/chat-domain';

const where = 'http://127.0.0.1:11434/v1';
const settings: ModelSettings = {
  provider: 'openai-compatible',
  baseUrl: where,
  model: 'llama3.2',
  apiKeyEnv: null,
  contextWindow: null,
  summaryModel: null,
};

/** What fetch throws when the socket fails: a TypeError whose cause carries the system's code. */
function fetchFailure(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

/** The message with the server's address taken out, so its dots do not count as sentence ends. */
const withoutAddress = (message: string) => message.replace(where, 'the address');

describe('a model server that cannot be reached', () => {
  it.each([
    [
      'refuses the connection',
      new ServerDownError('ECONNREFUSED'),
      `Cannot reach the model server at ${where}: nothing is listening there; is it running?`,
    ],
    [
      'has a host name that does not resolve',
      fetchFailure('ENOTFOUND'),
      `Cannot reach the model server at ${where}: its host name was not found; check the base URL.`,
    ],
    [
      'has no route to it',
      fetchFailure('EHOSTUNREACH'),
      `Cannot reach the model server at ${where}: there is no network route to it.`,
    ],
    [
      'fails with no code to say why',
      new TypeError('fetch failed'),
      `Cannot reach the model server at ${where}; is it running?`,
    ],
  ])('%s: is said in one plain sentence, without an error code', (_, error, expected) => {
    const described = describeModelError(error, settings);
    expect(described.message).toBe(expected);
    expect(described.kind).toBe('unreachable');
    expect(withoutAddress(described.message)).toMatch(/^[^.?!]+[.?]$/);
    expect(described.message).not.toMatch(/\bE[A-Z]{4,}\b/);
  });

  it('that drops the connection on each of three attempts says so, and how often it was tried', () => {
    const error = new RetryError({
      message: 'Failed after 3 attempts.',
      reason: 'maxRetriesExceeded',
      errors: [fetchFailure('ECONNRESET'), fetchFailure('ECONNRESET'), fetchFailure('ECONNRESET')],
    });
    const described = describeModelError(error, settings);
    expect(described.message).toBe(
      `The connection to the model server at ${where} was dropped (tried 3 times).`,
    );
    expect(described.kind).toBe('stream-cut');
  });
});
