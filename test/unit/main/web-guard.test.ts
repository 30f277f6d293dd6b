import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkRequest, tokenCookieName } from '../../../src/main/hosts/web-guard';

const port = 4321;
const token = 'secret-token';
const request = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers: { host: `127.0.0.1:${port}`, ...headers } }) as unknown as IncomingMessage;

describe('browser host guard', () => {
  it('accepts the token from the URL, a Bearer header or the cookie', () => {
    expect(checkRequest(request(`/?token=${token}`), port, token)).toEqual({ ok: true, viaQuery: true });
    expect(checkRequest(request('/api/app:info', { authorization: `Bearer ${token}` }), port, token).ok).toBe(
      true,
    );
    expect(
      checkRequest(request('/', { cookie: `a=b; ${tokenCookieName(port)}=${token}` }), port, token).ok,
    ).toBe(true);
  });

  it('answers 401 without the right token', () => {
    for (const req of [
      request('/'),
      request('/?token=wrong'),
      request('/', { authorization: 'Bearer wrong' }),
      request('/', { cookie: `${tokenCookieName(port + 1)}=${token}` }),
    ]) {
      expect(checkRequest(req, port, token)).toMatchObject({ ok: false, status: 401 });
    }
  });

  it('answers 403 for a foreign Origin or Host, even with the token', () => {
    const withToken = { authorization: `Bearer ${token}` };
    expect(
      checkRequest(request('/', { ...withToken, origin: 'https://evil.example' }), port, token),
    ).toMatchObject({ status: 403 });
    expect(
      checkRequest(request('/', { ...withToken, origin: `http://127.0.0.1:${port + 1}` }), port, token),
    ).toMatchObject({ status: 403 });
    expect(checkRequest(request('/', { ...withToken, host: 'evil.example' }), port, token)).toMatchObject({
      status: 403,
    });
    expect(
      checkRequest(request('/', { ...withToken, origin: `http://localhost:${port}` }), port, token).ok,
    ).toBe(true);
  });
});
