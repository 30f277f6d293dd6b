import type { Envelope, EventChannel, RequestChannel } from '../../shared/contract';
import { createKastenApi, type KastenApi, type KastenTransport } from '../../shared/kasten-api';

const expired: Envelope<never> = {
  ok: false,
  error: {
    code: 'forbidden',
    message: 'This page lost its access token. Open the address `kasten serve` printed again.',
  },
};

async function invoke(channel: RequestChannel, input: unknown): Promise<Envelope<unknown>> {
  let response: Response;
  try {
    response = await fetch(`/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: input === undefined ? '' : JSON.stringify(input),
      credentials: 'same-origin',
    });
  } catch {
    return {
      ok: false,
      error: { code: 'internal', message: 'Kasten is not reachable. Is `kasten serve` still running?' },
    };
  }
  if (response.status === 401 || response.status === 403) return expired;
  return (await response.json()) as Envelope<unknown>;
}

/** One WebSocket for all events; it reconnects with backoff when the host restarts. */
function createEventSocket() {
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let retry = 0;

  const connect = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/events`);
    socket.onopen = () => (retry = 0);
    socket.onmessage = (message) => {
      const { channel, payload } = JSON.parse(String(message.data)) as {
        channel: EventChannel;
        payload: unknown;
      };
      listeners.get(channel)?.forEach((listener) => listener(payload));
    };
    socket.onclose = () => {
      socket = null;
      setTimeout(connect, Math.min(10_000, 250 * 2 ** retry++));
    };
  };

  return (channel: EventChannel, listener: (payload: unknown) => void) => {
    if (!socket) connect();
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set.add(listener));
    return () => {
      set.delete(listener);
    };
  };
}

/** `window.kasten` for the browser host: the same API as the desktop preload, over HTTP and WebSocket. */
export function createBrowserClient(): KastenApi {
  const transport: KastenTransport = { invoke, subscribe: createEventSocket() };
  return createKastenApi(transport);
}
