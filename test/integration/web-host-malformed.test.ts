import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KastenApp } from '../../src/main/app';
import { AppEvents } from '../../src/main/app-events';
import { startWebHost, type WebHost } from '../../src/main/hosts/web';
import { tempWorkspace } from '../support/temp-vault';
import { serveWorkspace } from '../support/web-host-app';

const workspace = tempWorkspace('basic');
const rendererDir = join(workspace.base, 'renderer');
let app: KastenApp;
let host: WebHost;

beforeAll(async () => {
  ({ app, host } = await serveWorkspace(workspace, { watch: false }));
});

afterAll(async () => {
  await host.close();
  await app.dispose();
  workspace.remove();
});

/** What came back on a raw connection: the status, or null when the host closed it without an answer. */
interface RawAnswer {
  status: number | null;
  text: string;
}

/**
 * Writes bytes on a fresh TCP connection and reads one answer: until its headers and body (by
 * Content-Length or chunked) have arrived, or the host closes the connection. `end` half-closes after writing, as a client
 * that gives up mid-request does.
 */
function exchange(bytes: string | Buffer, options: { end?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1];
      resolve({ status: status === undefined ? null : Number(status), text });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No answer and no close for ${JSON.stringify(String(bytes).slice(0, 80))}`));
    }, 5_000);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const head = text.slice(0, headerEnd);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      if (length !== undefined && received.length >= headerEnd + 4 + Number(length)) finish();
      if (/\r\ntransfer-encoding: *chunked/i.test(head) && text.endsWith('\r\n0\r\n\r\n')) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(bytes, () => {
      if (options.end) socket.end();
    });
  });
}

/** The host still serves the contract to the user who holds the token. */
async function stillServes(): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${host.port}/api/app:info`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}` },
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ ok: true, value: { name: 'Kasten' } });
}

const hostHeader = () => `Host: 127.0.0.1:${host.port}`;
const auth = () => `Authorization: Bearer ${host.token}`;
const get = (target: string, ...headers: string[]) =>
  `GET ${target} HTTP/1.1\r\n${[hostHeader(), ...headers].join('\r\n')}\r\n\r\n`;
const post = (target: string, body: string, ...headers: string[]) =>
  `POST ${target} HTTP/1.1\r\n${[hostHeader(), `Content-Length: ${Buffer.byteLength(body)}`, ...headers].join('\r\n')}\r\n\r\n${body}`;
const upgrade = (target: string, ...headers: string[]) =>
  get(
    target,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...headers,
  );

interface MalformedCase {
  name: string;
  bytes: () => string | Buffer;
  /** The statuses a correct host may answer with; null: it closes the connection without one. */
  answers: (number | null)[];
  end?: boolean;
}

const cases: MalformedCase[] = [
  { name: 'a target that reads as a bad host: //[', bytes: () => get('//['), answers: [400] },
  { name: 'an absolute-form target with a bad host', bytes: () => get('http://[/'), answers: [400] },
  { name: 'a target with credentials and an IPv6 host', bytes: () => get('//a:b@[::1'), answers: [400] },
  { name: 'a target whose host percent-decodes badly', bytes: () => get('//%25zz'), answers: [400] },
  { name: 'the same, with the token', bytes: () => get('//[', auth()), answers: [400] },
  { name: 'a backslash target', bytes: () => get('/\\evil.example/', auth()), answers: [400] },
  {
    name: 'an asterisk target',
    bytes: () => `OPTIONS * HTTP/1.1\r\n${hostHeader()}\r\n\r\n`,
    answers: [400],
  },
  { name: 'a truncated percent-encoding, no token', bytes: () => post('/api/%E0%A4%A', ''), answers: [400] },
  {
    name: 'a truncated percent-encoding, with token',
    bytes: () => post('/api/%E0%A4%A', '', auth()),
    answers: [400],
  },
  { name: 'an invalid UTF-8 percent-encoding', bytes: () => post('/api/%FF%FE', '', auth()), answers: [400] },
  {
    name: 'a non-hex percent-encoding in a page path',
    bytes: () => get('/assets/%zz.js', auth()),
    answers: [400],
  },
  { name: 'a bad percent-encoding in the token', bytes: () => get('/?token=%E0%A4%A'), answers: [401] },
  {
    name: 'raw non-UTF-8 bytes in the path',
    bytes: () =>
      Buffer.concat([
        Buffer.from('GET /api/\xff\xfe'),
        Buffer.from(` HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\n\r\n`),
      ]),
    answers: [400],
  },
  { name: 'a NUL byte in the request line', bytes: () => get('/\0', auth()), answers: [400] },
  { name: 'a NUL byte in a header', bytes: () => get('/', `X-Note: a\0b`, auth()), answers: [400] },
  {
    name: 'binary garbage',
    bytes: () => Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]),
    answers: [400],
  },
  { name: 'an unknown method', bytes: () => `BREW / HTTP/1.1\r\n${hostHeader()}\r\n\r\n`, answers: [400] },
  { name: 'an HTTP/0.9 request line', bytes: () => 'GET /\r\n\r\n', answers: [400] },
  { name: 'a header without a colon', bytes: () => get('/', 'Broken header', auth()), answers: [400] },
  { name: 'a huge header', bytes: () => get('/', `X-Big: ${'a'.repeat(70_000)}`, auth()), answers: [431] },
  { name: 'no Host header', bytes: () => `GET / HTTP/1.1\r\n${auth()}\r\n\r\n`, answers: [400] },
  {
    name: 'a bad Host header',
    bytes: () => `GET / HTTP/1.1\r\nHost: [::1\r\n${auth()}\r\n\r\n`,
    answers: [403],
  },
  { name: 'two Host headers', bytes: () => get('/', 'Host: evil.example', auth()), answers: [400] },
  {
    name: 'an absurd Content-Length',
    bytes: () =>
      `POST /api/app:info HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nContent-Length: 99999999999999999999999\r\n\r\n`,
    answers: [400],
  },
  {
    name: 'a Content-Length over the body limit',
    bytes: () =>
      `POST /api/app:info HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nContent-Length: 5000000000\r\n\r\n{}`,
    answers: [413],
  },
  {
    name: 'a negative Content-Length',
    bytes: () => `POST /api/app:info HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nContent-Length: -1\r\n\r\n`,
    answers: [400],
  },
  {
    name: 'both Content-Length and chunked',
    bytes: () =>
      `POST /api/app:info HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    answers: [400],
  },
  {
    name: 'a truncated chunked body',
    bytes: () =>
      `POST /api/notes:read HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n{"path":`,
    answers: [400, null],
    end: true,
  },
  {
    name: 'a bad chunk size',
    bytes: () =>
      `POST /api/notes:read HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    answers: [400],
  },
  {
    name: 'a body shorter than its Content-Length',
    bytes: () =>
      `POST /api/notes:read HTTP/1.1\r\n${hostHeader()}\r\n${auth()}\r\nContent-Length: 50\r\n\r\n{"pa`,
    answers: [400, null],
    end: true,
  },
  { name: 'invalid JSON', bytes: () => post('/api/notes:read', '{"path":', auth()), answers: [400] },
  {
    name: 'JSON in invalid UTF-8',
    bytes: () =>
      Buffer.concat([
        Buffer.from(post('/api/notes:read', '{"path":"xx.md"}', auth()).slice(0, -7)),
        Buffer.from([0xff, 0xfe, 0x2e, 0x6d, 0x64, 0x22, 0x7d]),
      ]),
    answers: [200],
  },
  { name: 'JSON of the wrong shape', bytes: () => post('/api/notes:read', '[[[[', auth()), answers: [400] },
  { name: 'an unknown channel', bytes: () => post('/api/%00', '', auth()), answers: [404] },
  {
    name: 'a backwards Range header',
    bytes: () => get('/assets/app.js', 'Range: bytes=10-5', auth()),
    answers: [200],
  },
  { name: 'a WebSocket upgrade to //[', bytes: () => upgrade('//['), answers: [400] },
  { name: 'a WebSocket upgrade to //[ with the token', bytes: () => upgrade('//[', auth()), answers: [400] },
  {
    name: 'a WebSocket upgrade with a bad percent-encoding',
    bytes: () => upgrade('/events%zz', auth()),
    answers: [400],
  },
  {
    name: 'a WebSocket upgrade with a bad key',
    bytes: () => upgrade('/events', auth()).replace('dGhlIHNhbXBsZSBub25jZQ==', '!'),
    answers: [400],
  },
  {
    name: 'a WebSocket upgrade cut off mid-headers',
    bytes: () => upgrade('/events', auth()).slice(0, -30),
    answers: [400, null],
    end: true,
  },
  {
    name: 'garbage frames after a valid upgrade',
    bytes: () => upgrade('/events', auth()) + '\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff',
    answers: [101],
  },
];

describe('the browser host against malformed requests', () => {
  it.each(cases)('answers $name with $answers and keeps serving', async ({ bytes, answers, end }) => {
    const answer = await exchange(bytes(), { end });
    expect(answers, answer.text.slice(0, 200)).toContain(answer.status);
    await stillServes();
  });

  it('keeps serving after a client resets the connection during a WebSocket refusal', async () => {
    for (let round = 0; round < 50; round++) {
      const socket = connect(host.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(upgrade('/elsewhere'), () => socket.resetAndDestroy());
    }
    await stillServes();
  });

  it('redirects a token URL to a path on this host, never to "//" another one', async () => {
    const answer = await exchange(get(`/.//evil.example/?token=${host.token}`));
    expect(answer.status).toBe(303);
    expect(answer.text).toMatch(/\r\nlocation: \/evil\.example\/\r\n/i);
  });
});

describe('the browser host when an answer cannot be sent', () => {
  it('answers 500 instead of ending the process, and keeps serving', async () => {
    // A value JSON cannot write fails after the handler returned, in the host's own async code.
    const unsendable = { handlers: { 'app:info': async () => ({ size: 1n }) }, events: new AppEvents() };
    const broken = await startWebHost({ app: unsendable as never, rendererDir });
    try {
      const call = () =>
        fetch(`http://127.0.0.1:${broken.port}/api/app:info`, {
          method: 'POST',
          headers: { authorization: `Bearer ${broken.token}` },
        });
      const first = await call();
      expect(first.status).toBe(500);
      expect(await first.json()).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect((await call()).status).toBe(500);
    } finally {
      await broken.close();
    }
  });
});
