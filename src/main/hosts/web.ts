import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import sirv from 'sirv';
import { WebSocketServer } from 'ws';
import { contentSecurityPolicy } from '../../shared/content-security-policy';
import type { ErrorCode } from '../../shared/contract';
import type { KastenApp } from '../app';
import { dispatch, fromBrowser, isRequestChannel } from './dispatch';
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
/** A dropped file comes in base64 (4 bytes for 3) in one request: up to 25 MB of it. */
const maxAttachmentBodyBytes = 36 * 1024 * 1024;
const upgradeRefusals = { 400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden' } as const;
const securityHeaders: Record<string, string> = {
  'content-security-policy': `${contentSecurityPolicy}; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function send(response: ServerResponse, status: number, body: unknown): void {
  // Serialized first: a value that cannot be written then fails before any header has gone out.
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(text);
}

function refuse(response: ServerResponse, status: number, code: ErrorCode, message: string): void {
  send(response, status, { ok: false, error: { code, message } });
}

/** A handler that threw: the client gets a 500 (or a cut connection, once headers went), the host lives on. */
function fail(response: ServerResponse, error: unknown): void {
  console.error('The browser host failed to answer a request:', error);
  if (response.headersSent) response.destroy();
  else refuse(response, 500, 'internal', 'The browser host failed to answer this request.');
}

/** A browser asking for a page (not a script, an image or the API). */
function wantsPage(request: IncomingMessage): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** What a browser shows at an address without a valid token: static, no script (the CSP allows none). */
const tokenPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kasten: open the address kasten serve printed</title></head>
<body>
<h1>This Kasten address has expired</h1>
<p>Kasten's browser host makes a new access token every time it starts, so an address from an earlier
start no longer opens it.</p>
<p>Open the address <code>kasten serve</code> printed when it started (it ends in
<code>?token=…</code>). If it is not running, start it again with <code>kasten serve</code>.</p>
</body></html>
`;

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge('Request body too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The browser host: the renderer build plus the contract over HTTP (requests) and WebSocket (events). */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? createToken();
  const assets = sirv(options.rendererDir, { single: true, etag: true, dev: false });
  let port = 0;

  function answer(request: IncomingMessage, response: ServerResponse): void {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    const verdict = checkRequest(request, port, token);
    if (!verdict.ok) {
      // A person at an old address (the host restarted with a new token) gets a page, not JSON.
      if (verdict.status === 401 && request.method === 'GET' && wantsPage(request)) {
        return void response.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end(tokenPage);
      }
      const code = verdict.status === 400 ? 'invalid-input' : 'forbidden';
      return refuse(response, verdict.status, code, verdict.message);
    }
    const { url, path } = verdict.target;

    if (path.startsWith('/api/')) {
      if (request.method !== 'POST') return refuse(response, 405, 'invalid-input', 'Use POST.');
      handleApi(path.slice(5), request, response).catch((error: unknown) => fail(response, error));
      return;
    }
    if (verdict.viaQuery && request.method === 'GET') {
      // Trade the token in the URL for a cookie, then drop it from the address bar.
      response.setHeader(
        'set-cookie',
        `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      );
      url.searchParams.delete('token');
      // One leading slash: "//host" in a Location header would send the browser to another site.
      response.writeHead(303, { location: url.pathname.replace(/^\/+/, '/') + url.search });
      return void response.end();
    }
    // The renderer's files are small; sirv's Range support throws on a backwards range after writing headers.
    delete request.headers.range;
    assets(request, response, () => refuse(response, 404, 'not-found', 'Not found.'));
  }

  const server = createServer((request, response) => {
    try {
      answer(request, response);
    } catch (error) {
      fail(response, error);
    }
  });
  // A request Node cannot parse (bad request line, NUL bytes, huge headers, a broken Content-Length)
  // never reaches the handler: Node's own clientError answer (400, or 431) closes that connection alone.

  async function handleApi(
    channel: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    if (!isRequestChannel(channel)) {
      return refuse(response, 404, 'not-found', `Unknown request channel "${channel}".`);
    }
    const limit = channel === 'attachments:prepare' ? maxAttachmentBodyBytes : maxBodyBytes;
    if (Number(request.headers['content-length'] ?? 0) > limit) {
      response.setHeader('connection', 'close');
      return refuse(response, 413, 'too-large', 'Request body too large.');
    }
    let payload: unknown;
    try {
      const body = await readBody(request, limit);
      payload = body.trim() === '' ? undefined : JSON.parse(body);
    } catch (error) {
      if (error instanceof BodyTooLarge) return refuse(response, 413, 'too-large', error.message);
      return refuse(response, 400, 'invalid-input', (error as Error).message);
    }
    send(response, 200, await dispatch(options.app, channel, payload, fromBrowser));
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket's errors to us; unheard, a reset connection would end the process.
    socket.on('error', () => socket.destroy());
    try {
      upgrade(request, socket, head);
    } catch (error) {
      console.error('The browser host failed to answer a WebSocket upgrade:', error);
      socket.destroy();
    }
  });

  function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const verdict = checkRequest(request, port, token);
    if (!verdict.ok || verdict.target.path !== '/events') {
      const status = !verdict.ok ? upgradeRefusals[verdict.status] : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const unsubscribe = options.app.events.subscribe(
        (channel, payload) => ws.send(JSON.stringify({ channel, payload })),
        { replay: true },
      );
      ws.on('close', unsubscribe);
      ws.on('error', unsubscribe);
    });
  }

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
