import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A request target the host understands: the parsed URL and its path, percent-decoded. */
export interface RequestTarget {
  url: URL;
  path: string;
}

/** Why a request to the browser host was refused, if it was; what it asks for when it was not. */
export type GuardVerdict =
  | { ok: true; viaQuery: boolean; target: RequestTarget }
  | { ok: false; status: 400 | 401 | 403; message: string };

export function createToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenCookieName(port: number): string {
  // Cookies ignore ports, so two hosts on one machine must not share a cookie name.
  return `kasten-token-${port}`;
}

// A path with one leading slash, in visible ASCII only (RFC 9112 origin-form); browsers send nothing
// else to a server that is not a proxy. `//host/…` would read as another host; raw bytes are not a URL.
const originForm = /^\/(?![/\\])[\x21-\x7e]*$/;

/**
 * Parses the request line's target once, or null when it is malformed: not a single-slash path, not
 * parseable, or with a percent-encoding that does not decode to UTF-8.
 */
export function parseRequestTarget(raw: string | undefined): RequestTarget | null {
  if (raw === undefined || !originForm.test(raw)) return null;
  try {
    const url = new URL(`http://127.0.0.1${raw}`);
    return { url, path: decodeURIComponent(url.pathname) };
  } catch {
    return null;
  }
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
 * loopback (no DNS rebinding), a cross-site Origin is refused, the request target is a path the host
 * can read, and the per-launch token is presented — in the URL the user was given, as a Bearer header,
 * or as the cookie set from that URL.
 */
export function checkRequest(request: IncomingMessage, port: number, token: string): GuardVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  // Node keeps the first of two Host headers; a proxy in front might have read the second (RFC 9112: 400).
  const hosts = request.headersDistinct?.host?.length ?? (request.headers.host === undefined ? 0 : 1);
  if (hosts !== 1) return { ok: false, status: 400, message: 'Refused: a request needs one Host header.' };
  if (!allowedHosts.includes(request.headers.host ?? '')) {
    return { ok: false, status: 403, message: 'Refused: unexpected Host header.' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`)) {
    return { ok: false, status: 403, message: 'Refused: requests from other sites are not allowed.' };
  }
  const target = parseRequestTarget(request.url);
  if (!target) return { ok: false, status: 400, message: 'Refused: malformed request target.' };
  const fromQuery = target.url.searchParams.get('token') ?? undefined;
  const authorization = request.headers.authorization;
  const fromHeader = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
  if (sameToken(token, fromQuery)) return { ok: true, viaQuery: true, target };
  if (sameToken(token, fromHeader) || sameToken(token, cookie(request, tokenCookieName(port)))) {
    return { ok: true, viaQuery: false, target };
  }
  return { ok: false, status: 401, message: 'Kasten needs the token from the URL it printed at start.' };
}
