import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { KastenApp } from '../../src/main/app';
import type { WebHost } from '../../src/main/hosts/web';
import { tempWorkspace, waitFor } from '../support/temp-vault';
import { serveWorkspace } from '../support/web-host-app';

const workspace = tempWorkspace('basic');
let app: KastenApp;
let host: WebHost;
let base: string;

beforeAll(async () => {
  ({ app, host } = await serveWorkspace(workspace));
  base = `http://127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host.close();
  await app.dispose();
  workspace.remove();
});

const bearer = () => ({ authorization: `Bearer ${host.token}` });
const call = (channel: string, body: unknown, headers: Record<string, string> = bearer()) =>
  fetch(`${base}/api/${channel}`, {
    method: 'POST',
    headers,
    body: body === undefined ? '' : JSON.stringify(body),
  });

function socketStatus(headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers });
    socket.on('open', () => (socket.close(), resolve('open')));
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => undefined);
  });
}

describe('browser host over real HTTP', () => {
  it('prints a loopback URL carrying a random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it('answers 401 without the token, for pages, assets, requests and the event socket', async () => {
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/assets/app.js`)).status).toBe(401);
    expect((await call('app:info', undefined, {})).status).toBe(401);
    expect((await call('app:info', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
    expect(await socketStatus({})).toBe(401);
    // A browser at an address from an earlier start gets a page that says what to do.
    const page = await fetch(`${base}/`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Open the address <code>kasten serve</code> printed');
  });

  it('answers 403 for a foreign Origin or Host, even with the token', async () => {
    expect((await call('app:info', undefined, { ...bearer(), origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect(await socketStatus({ ...bearer(), origin: 'https://evil.example' })).toBe(403);
    expect(await socketStatus({ ...bearer(), host: 'evil.example' })).toBe(403);
  });

  it('trades the URL token for a cookie and serves the page with a strict CSP', async () => {
    const first = await fetch(host.url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await fetch(`${base}/`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Kasten</title>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('serves the contract: tree, note contents, refused paths, invalid input', async () => {
    const tree = (await (await call('vault:tree', undefined)).json()) as {
      value: { vault: { noteCount: number } };
    };
    expect(tree.value.vault.noteCount).toBe(3);
    expect(await (await call('notes:read', { path: 'projects/Alpha.md' })).json()).toMatchObject({
      ok: true,
      value: { name: 'Alpha', content: expect.stringContaining('## Goals') },
    });
    expect(await (await call('notes:read', { path: '../../etc/passwd.md' })).json()).toMatchObject({
      ok: false,
      error: { code: 'outside-vault' },
    });
    expect(await (await call('notes:read', { nope: 1 })).json()).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(
      (await fetch(`${base}/api/notes:read`, { method: 'POST', headers: bearer(), body: '{bad json' }))
        .status,
    ).toBe(400);
  });

  it('pushes vault:changed over the WebSocket when a note appears on disk', async () => {
    const received: { channel: string; payload: { paths: string[]; vault: { noteCount: number } } }[] = [];
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers: bearer() });
    socket.on('message', (data) => received.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    writeFileSync(join(workspace.vault, 'Fresh.md'), '# Fresh');
    await waitFor(
      () =>
        received.some(
          (event) => event.channel === 'vault:changed' && event.payload.paths.includes('Fresh.md'),
        ),
      5000,
      'vault:changed',
    );
    socket.close();
    const vaultChanges = received.filter((event) => event.channel === 'vault:changed');
    expect(vaultChanges.at(-1)).toMatchObject({ payload: { vault: { noteCount: 4 } } });
  });

  it('tells a socket that connects after indexing ended that it ended, so the page does not wait forever', async () => {
    for (let tries = 0; (await app.handlers['index:status'](undefined)).progress?.state !== 'idle'; tries++) {
      if (tries > 250) throw new Error('The index never finished');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers: bearer() });
    const first = await new Promise<{ channel: string; payload: { state: string } }>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    socket.close();
    expect(first).toMatchObject({ channel: 'index:progress', payload: { state: 'idle' } });
  });
});
