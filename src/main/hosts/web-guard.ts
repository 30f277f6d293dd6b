import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request to the browser host was refused, if it was. */
export type GuardVerdict =
  { ok: true; viaQuery: boolean } | { ok: false; status: 401 | 403; message: string };

export function createToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenCookieName(port: number): string {
  // Cookies ignore ports, so two hosts on one machine must not share a cookie name.
  return `kasten-token-${port}`;
}

function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The browser host listens on loopback only, so the checks that matter are: the Host header names
 * loopback (no DNS rebinding), a cross-site Origin is refused, and the per-launch token is presented —
 * in the URL the user was given, as a Bearer header, or as the cookie set from that URL.
 */
export function checkRequest(request: IncomingMessage, port: number, token: string): GuardVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!allowedHosts.includes(request.headers.host ?? '')) {
    return { ok: false, status: 403, message: 'Refused: unexpected Host header.' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`)) {
    return { ok: false, status: 403, message: 'Refused: requests from other sites are not allowed.' };
  }
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const fromQuery = url.searchParams.get('token') ?? undefined;
  const authorization = request.headers.authorization;
  const fromHeader = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
  if (sameToken(token, fromQuery)) return { ok: true, viaQuery: true };
  if (sameToken(token, fromHeader) || sameToken(token, cookie(request, tokenCookieName(port)))) {
    return { ok: true, viaQuery: false };
  }
  return { ok: false, status: 401, message: 'Kasten needs the token from the URL it printed at start.' };
}
