/**
 * Connection errors that mean nothing listens there (or the name does not resolve): retrying them only
 * delays the message. A dropped connection (ECONNRESET) may be a hiccup and is still retried.
 */
const downCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/**
 * The server is not there. The SDK retries any error whose `code` (or a cause's) is a network error's,
 * so this one carries neither: its code is `downCode`.
 */
export class ServerDownError extends Error {
  constructor(readonly downCode: string) {
    super(`The server is not reachable (${downCode}).`);
    this.name = 'ServerDownError';
  }
}

/**
 * `fetch` for the model providers: a refused connection fails at once rather than after the SDK's
 * retries with backoff (2 s + 4 s), so "cannot reach" shows within a second of Send.
 */
export function failFast(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await inner(input, init);
    } catch (error) {
      const down = codesOf(error).find((code) => downCodes.has(code));
      if (down) throw new ServerDownError(down);
      throw error;
    }
  };
}
