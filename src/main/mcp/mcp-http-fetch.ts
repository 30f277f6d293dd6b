/** Why Kasten stopped reading a reply from an HTTP server. */
export class ReplyCut extends Error {
  constructor(
    readonly reason: 'oversized' | 'deadline',
    message: string,
  ) {
    super(message);
    this.name = 'ReplyCut';
  }
}

export interface ReplyLimits {
  /** The most bytes of one reply (of one event, on an event stream). */
  maxBytes: number;
  /** How long the reply to a POST may take, headers and body together. */
  maxMs: number;
  /** Told before a reply's read is aborted. */
  cut(error: ReplyCut): void;
}

/** How a stream cut at its deadline reads in the SDK's "SSE stream disconnected: …". */
export const replyDeadlineWords = 'the reply took longer than the call may';

const newline = 0x0a;

/** Where the last blank line of an event stream ends in `chunk`, given the byte before it; -1 if none. */
function lastEventEnd(chunk: Buffer, before: number): number {
  const end = Math.max(chunk.lastIndexOf('\n\n'), chunk.lastIndexOf('\n\r\n'));
  if (end >= 0) return end + (chunk[end + 1] === newline ? 2 : 3);
  return before === newline && chunk[0] === newline ? 1 : -1;
}

/** Counts a reply's bytes: all of them, or on an event stream those since the last event ended. */
function byteCounter(eventStream: boolean): (chunk: Buffer) => number {
  let pending = 0;
  let last = 0;
  return (chunk) => {
    const end = eventStream ? lastEventEnd(chunk, last) : -1;
    pending = end >= 0 ? chunk.length - end : pending + chunk.length;
    last = chunk.at(-1) ?? last;
    return pending;
  };
}

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for the SDK's HTTP transport that reads no reply past `maxBytes` (a JSON body, an error
 * body, one event of a stream) nor the reply to a POST past `maxMs`: the read is aborted, not left to
 * grow, and the SDK sees the body fail. The SDK's own timeout only stops waiting for a reply.
 */
export function cappedFetch(limits: ReplyLimits, base: typeof fetch = fetch): typeof fetch {
  return async (url, init) => {
    const reading = new AbortController();
    const abort = (error: ReplyCut) => {
      limits.cut(error);
      reading.abort(error);
    };
    const post = init?.method === 'POST';
    // Unreferenced: a reply whose body the SDK cancelled (a 202) must not keep the process alive.
    const timer = post
      ? setTimeout(() => abort(new ReplyCut('deadline', replyDeadlineWords)), limits.maxMs).unref()
      : undefined;
    const signal = init?.signal ? AbortSignal.any([init.signal, reading.signal]) : reading.signal;
    let response: Response;
    try {
      response = await base(url, { ...init, signal });
    } catch (error) {
      clearTimeout(timer);
      throw error;
    }
    const redirect = response.status >= 300 && response.status < 400;
    if (!response.body || redirect || nullBodyStatuses.has(response.status)) {
      clearTimeout(timer);
      return response;
    }
    const count = byteCounter(response.headers.get('content-type')?.includes('text/event-stream') ?? false);
    const { maxBytes } = limits;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, stream) {
          const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          if (count(bytes) <= maxBytes) return stream.enqueue(chunk);
          const error = new ReplyCut('oversized', `a reply larger than ${maxBytes} bytes`);
          abort(error);
          stream.error(error);
        },
        flush: () => clearTimeout(timer),
      }),
      { signal: reading.signal },
    );
    const { status, statusText, headers } = response;
    return new Response(capped, { status, statusText, headers });
  };
}
