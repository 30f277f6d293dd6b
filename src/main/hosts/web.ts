import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';
import { WebSocketServer } from 'ws';
import { contentSecurityPolicy } from '../../shared/content-security-policy';
import type { KastenApp } from '../app';
import { dispatch, isRequestChannel } from './dispatch';
import { checkRequest, createToken, tokenCookieName } from './web-guard';

export interface WebHostOptions {
  app: Pick<KastenApp, 'handlers' | 'events'>;
  /** The built renderer (`out/renderer`). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); a random one per launch otherwise. */
  token?: string;
}

export interface WebHost {
  /** The address to open, carrying the token. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const maxBodyBytes = 4 * 1024 * 1024;
const securityHeaders: Record<string, string> = {
  'content-security-policy': `${contentSecurityPolicy}; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new Error('Request body too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The browser host: the renderer build plus the contract over HTTP (requests) and WebSocket (events). */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? createToken();
  const assets = sirv(options.rendererDir, { single: true, etag: true, dev: false });
  let port = 0;

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    const verdict = checkRequest(request, port, token);
    if (!verdict.ok)
      return send(response, verdict.status, {
        ok: false,
        error: { code: 'forbidden', message: verdict.message },
      });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');

    if (url.pathname.startsWith('/api/')) {
      if (request.method !== 'POST')
        return send(response, 405, { ok: false, error: { code: 'invalid-input', message: 'Use POST.' } });
      void handleApi(decodeURIComponent(url.pathname.slice(5)), request, response);
      return;
    }
    if (verdict.viaQuery && request.method === 'GET') {
      // Trade the token in the URL for a cookie, then drop it from the address bar.
      response.setHeader(
        'set-cookie',
        `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      );
      url.searchParams.delete('token');
      response.writeHead(303, { location: url.pathname + url.search });
      return response.end();
    }
    assets(request, response, () =>
      send(response, 404, { ok: false, error: { code: 'not-found', message: 'Not found.' } }),
    );
  });

  async function handleApi(
    channel: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    if (!isRequestChannel(channel)) {
      return send(response, 404, {
        ok: false,
        error: { code: 'not-found', message: `Unknown request channel "${channel}".` },
      });
    }
    let payload: unknown;
    try {
      const body = await readBody(request);
      payload = body.trim() === '' ? undefined : JSON.parse(body);
    } catch (error) {
      return send(response, 400, {
        ok: false,
        error: { code: 'invalid-input', message: (error as Error).message },
      });
    }
    send(response, 200, await dispatch(options.app, channel, payload));
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (request, socket, head) => {
    const verdict = checkRequest(request, port, token);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (!verdict.ok || path !== '/events') {
      const status = verdict.ok
        ? '404 Not Found'
        : verdict.status === 401
          ? '401 Unauthorized'
          : '403 Forbidden';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const unsubscribe = options.app.events.subscribe((channel, payload) =>
        ws.send(JSON.stringify({ channel, payload })),
      );
      ws.on('close', unsubscribe);
      ws.on('error', unsubscribe);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
