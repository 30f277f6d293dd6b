import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { guardedLookup, refusalOf, systemResolver, type HostResolver } from './guarded-lookup';
import { refusedAddress } from './address-policy';

export interface FetchLimits {
  /** Bytes of body (after decompression) kept; the rest is not read. */
  maxBytes: number;
  /** The whole fetch, redirects included, ends after this long. */
  timeoutMs: number;
  maxRedirects: number;
}

export const defaultFetchLimits: FetchLimits = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 20_000,
  maxRedirects: 5,
};

export interface FetchOptions extends Partial<FetchLimits> {
  /** Loopback, private, link-local and other non-public addresses may be reached. */
  allowPrivate: boolean;
  resolve?: HostResolver;
  /** Which addresses the guard refuses (tests let their server on 127.0.0.1 stand for a public host). */
  refused?: (address: string) => string | null;
  signal?: AbortSignal;
}

export interface FetchedPage {
  /** The address the body came from, after redirects. */
  url: string;
  /** The media type in lower case (`text/html`), '' when the server sent none. */
  mediaType: string;
  /** The charset the server named, if any. */
  charset: string | null;
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
}

/** A page that could not be fetched; the message says why in plain words. */
export class WebFetchError extends Error {}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** The URL to fetch, or a plain refusal: only http and https, no credentials in it. */
export function webAddress(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new WebFetchError(`“${text}” is not a web address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchError(`Kasten fetches only http and https addresses, not “${url.protocol}” ones.`);
  if (url.username || url.password)
    throw new WebFetchError('Kasten does not fetch addresses with a user name or password in them.');
  url.hash = '';
  return url;
}

/**
 * Fetches a page in the main process: http and https only, each hop's address checked by the guard (an
 * address literal here, a name in the socket's lookup), redirects followed up to a limit, the body read up
 * to a size cap (the rest is cut) and the whole within a time limit.
 */
export async function fetchPage(address: string, options: FetchOptions): Promise<FetchedPage> {
  const limits = { ...defaultFetchLimits, ...options };
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const refused = options.refused ?? refusedAddress;
  const lookup = guardedLookup(options.resolve ?? systemResolver, options.allowPrivate, refused);
  const seen = new Set<string>();
  let url = webAddress(address);
  try {
    for (let hop = 0; ; hop++) {
      seen.add(url.href);
      const response = await request(url, lookup, options.allowPrivate ? null : refused, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location) {
        response.destroy();
        const next = webAddress(new URL(location, url).href);
        if (seen.has(next.href))
          throw new WebFetchError(`${address} redirects in a loop (back to ${next.href}).`);
        if (hop >= limits.maxRedirects)
          throw new WebFetchError(`${address} redirects more than ${limits.maxRedirects} times.`);
        url = next;
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new WebFetchError(
          `${url.href} answered ${status} ${response.statusMessage ?? ''}`.trim() + '.',
        );
      }
      const { body, truncated } = await readCapped(decoded(response), limits.maxBytes, signal);
      const [mediaType = '', ...parameters] = (response.headers['content-type'] ?? '').split(';');
      const charset = parameters
        .map((parameter) => parameter.trim().split('='))
        .find(([name]) => name?.toLowerCase() === 'charset')?.[1];
      return {
        url: url.href,
        mediaType: mediaType.trim().toLowerCase(),
        charset: charset?.replace(/^"|"$/g, '') ?? null,
        body,
        truncated,
      };
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    if (timeout.aborted)
      throw new WebFetchError(
        `${address} did not finish loading within ${limits.timeoutMs / 1000} seconds, so Kasten stopped.`,
      );
    if (error instanceof WebFetchError || (error as { code?: string }).code === 'EADDRESSREFUSED')
      throw new WebFetchError((error as Error).message);
    throw new WebFetchError(`${url.host} could not be reached: ${(error as Error).message}`);
  }
}

function request(
  url: URL,
  lookup: ReturnType<typeof guardedLookup>,
  refused: ((address: string) => string | null) | null,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  // The socket skips `lookup` for an address literal, so a literal is checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && refused) {
    const reason = refused(host);
    if (reason) return Promise.reject(refusalOf(host, host, reason));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, {
      lookup,
      signal,
      agent: false,
      headers: {
        'user-agent': 'Kasten (reads a page for a chat)',
        accept: 'text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** The body as sent before its content coding: gzip, deflate and brotli are undone as it streams. */
function decoded(response: http.IncomingMessage): Readable {
  const coding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.createGunzip()
      : coding === 'deflate'
        ? zlib.createInflate()
        : coding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  decoder.on('close', () => response.destroy());
  return response.pipe(decoder);
}

/** Reads at most `maxBytes` (a decompressed bomb or an endless body stops there) and lets the rest go. */
async function readCapped(
  stream: Readable,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const stop = () => stream.destroy(signal.reason as Error);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        truncated = chunk.length > room;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    if (!truncated && size === maxBytes) truncated = !stream.readableEnded;
  } finally {
    signal.removeEventListener('abort', stop);
    stream.destroy();
  }
  signal.throwIfAborted();
  return { body: Buffer.concat(chunks, size), truncated };
}
