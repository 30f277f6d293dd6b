import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkRequest, parseRequestTarget, tokenCookieName } from '../../../src/main/hosts/web-guard';

const port = 4321;
const token = 'secret-token';
const request = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers: { host: `127.0.0.1:${port}`, ...headers } }) as unknown as IncomingMessage;

describe('browser host guard', () => {
  it('accepts the token from the URL, a Bearer header or the cookie', () => {
    expect(checkRequest(request(`/?token=${token}`), port, token)).toMatchObject({
      ok: true,
      viaQuery: true,
    });
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

  it('answers 400 for a malformed request target, with or without the token, instead of throwing', () => {
    const malformed = [
      '//[',
      'http://[/',
      '//a:b@[::1',
      '//%25zz',
      '/\\evil.example/',
      '*',
      '',
      '/api/%E0%A4%A',
      '/api/%FF',
      '/%zz',
      '/a b',
      '/\u00ff',
    ];
    for (const target of malformed) {
      for (const headers of [{}, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
        expect(checkRequest(request(target, headers), port, token), target).toMatchObject({
          ok: false,
          status: 400,
        });
      }
    }
  });

  it('answers 400 for a request without exactly one Host header', () => {
    const withToken = { authorization: `Bearer ${token}` };
    const noHost = { url: '/', headers: withToken } as unknown as IncomingMessage;
    const twoHosts = {
      url: '/',
      headers: { host: `127.0.0.1:${port}`, ...withToken },
      headersDistinct: { host: [`127.0.0.1:${port}`, 'evil.example'] },
    } as unknown as IncomingMessage;
    expect(checkRequest(noHost, port, token)).toMatchObject({ ok: false, status: 400 });
    expect(checkRequest(twoHosts, port, token)).toMatchObject({ ok: false, status: 400 });
  });

  it('hands back the target it parsed, its path percent-decoded', () => {
    const verdict = checkRequest(
      request('/api/app%3Ainfo?x=1', { authorization: `Bearer ${token}` }),
      port,
      token,
    );
    expect(verdict).toMatchObject({ ok: true, target: { path: '/api/app:info' } });
    expect(parseRequestTarget('/notes/%C3%A9t%C3%A9.md?token=%zz')).toMatchObject({
      path: '/notes/été.md',
      url: { search: '?token=%zz' },
    });
    expect(parseRequestTarget(undefined)).toBeNull();
  });
});
