import { ChannelListeners } from '../../shared/channel-listeners';
import type { Envelope, EventMessage, RequestChannel } from '../../shared/contract';
import { createKastenApi, type KastenApi, type KastenTransport } from '../../shared/kasten-api';
import { createConnection, type Connection } from './connection';

const refused: Envelope<never> = {
  ok: false,
  error: {
    code: 'forbidden',
    message:
      'Kasten was restarted and no longer knows this page. Open the new address “kasten serve” printed in its terminal.',
  },
};
const unreachable: Envelope<never> = {
  ok: false,
  error: { code: 'internal', message: 'Connection to Kasten lost. Is “kasten serve” still running?' },
};

const connection = createConnection('connecting');

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
    return unreachable;
  }
  if (response.status === 401 || response.status === 403) {
    connection.set('refused');
    return refused;
  }
  try {
    return (await response.json()) as Envelope<unknown>;
  } catch {
    // Cut off mid-body by the host going away.
    return unreachable;
  }
}

/** Whether the host is down, up, or up but refusing this page's token. */
async function probe(): Promise<'down' | 'up' | 'refused'> {
  try {
    const response = await fetch('/api/app:info', { method: 'POST', body: '', credentials: 'same-origin' });
    return response.status === 401 || response.status === 403 ? 'refused' : 'up';
  } catch {
    return 'down';
  }
}

/** One WebSocket for all events; on loss it says so at once and reconnects with backoff. */
function createEventSocket() {
  const listeners = new ChannelListeners();
  let socket: WebSocket | null = null;
  let retry = 0;

  const connect = () => {
    const current = new WebSocket(
      `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/events`,
    );
    socket = current;
    current.onopen = () => {
      retry = 0;
      connection.set('connected');
    };
    current.onmessage = (message) => {
      // The host sends only what its typed bus emitted, each payload under its own channel.
      const event: EventMessage = JSON.parse(String(message.data));
      listeners.tell(event.channel, event.payload);
    };
    current.onclose = () => {
      socket = null;
      if (connection.get() !== 'refused') connection.set('lost');
      void probe().then((verdict) => {
        // The upgrade carries no status the page can read; a plain request tells a new token from a dead host.
        if (verdict === 'refused') connection.set('refused');
        else setTimeout(connect, verdict === 'up' ? 0 : Math.min(8_000, 250 * 2 ** retry++));
      });
    };
  };

  const subscribe: KastenTransport['subscribe'] = (channel, listener) => {
    if (!socket && connection.get() === 'connecting') connect();
    return listeners.add(channel, listener);
  };
  return subscribe;
}

/** `window.kasten` for the browser host: the same API as the desktop preload, over HTTP and WebSocket. */
export function createBrowserClient(): { api: KastenApi; connection: Connection } {
  const transport: KastenTransport = { invoke, subscribe: createEventSocket() };
  return { api: createKastenApi(transport), connection };
}
