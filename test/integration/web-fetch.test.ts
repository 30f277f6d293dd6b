import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedAddress } from '../../src/main/web/address-policy';
import type { HostResolver } from '../../src/main/web/guarded-lookup';
import { fetchPage } from '../../src/main/web/page-fetch';
import { startWebTestServer, type WebTestServer } from '../support/web-test-server';

let server: WebTestServer;

beforeAll(async () => {
  server = await startWebTestServer();
});
afterAll(() => server.close());

const allowed = { allowPrivate: true };

describe('the address guard', () => {
  it('refuses loopback, SSH on this machine and the metadata address unless private addresses are allowed', async () => {
    await expect(fetchPage(`${server.url}/article`, { allowPrivate: false })).rejects.toThrow(
      /127\.0\.0\.1 is a loopback address .* unless private addresses are allowed in Settings/,
    );
    await expect(fetchPage('http://127.0.0.1:22', { allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(
      fetchPage('http://169.254.169.254/latest/meta-data/', { allowPrivate: false }),
    ).rejects.toThrow(/169\.254\.169\.254 is a link-local address/);
    await expect(fetchPage('http://[::ffff:127.0.0.1]/', { allowPrivate: false })).rejects.toThrow(
      /loopback/,
    );
    await expect(fetchPage('http://localhost:1/', { allowPrivate: false })).rejects.toThrow(/loopback/);
    expect(server.requests).toEqual([]);
    // With the setting on, the same page is read.
    const page = await fetchPage(`${server.url}/article`, allowed);
    expect(page.body.toString()).toContain('ARTICLE-MARK');
  });

  it('checks every hop: a redirect to the metadata address is refused', async () => {
    // The test server stands for a public host; the address it redirects to is checked as what it is.
    const refused = (address: string) => (address === '127.0.0.1' ? null : refusedAddress(address));
    const names: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    await expect(
      fetchPage(`http://public.test:${server.port}/redirect-to-metadata`, {
        allowPrivate: false,
        resolve: names,
        refused,
      }),
    ).rejects.toThrow(/169\.254\.169\.254 is a link-local address/);
    expect(server.requests.at(-1)).toBe('/redirect-to-metadata');
  });

  it('connects to the address it checked: a name that answers 10.0.0.1 on its second lookup cannot pass', async () => {
    let lookups = 0;
    // The first answer is the test server (standing for a public host), every later one 10.0.0.1.
    const rebinding: HostResolver = async () => {
      lookups++;
      return [{ address: lookups === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const refused = (address: string) => (address === '127.0.0.1' ? null : refusedAddress(address));
    const page = await fetchPage(`http://rebind.test:${server.port}/article`, {
      allowPrivate: false,
      resolve: rebinding,
      refused,
    });
    expect(page.body.toString()).toContain('ARTICLE-MARK');
    // One lookup for the one connection: the address checked is the address connected to.
    expect(lookups).toBe(1);
    // A redirect is a new hop with its own lookup, and this time the name says 10.0.0.1.
    await expect(
      fetchPage(`http://rebind.test:${server.port}/hop/1`, {
        allowPrivate: false,
        resolve: rebinding,
        refused,
      }),
    ).rejects.toThrow(/rebind\.test \(10\.0\.0\.1\) is a private network address/);
  });
});

describe('fetching a page', () => {
  it('follows a redirect chain to the page', async () => {
    const page = await fetchPage(`${server.url}/hop/1`, allowed);
    expect(page.url).toBe(`${server.url}/article`);
    expect(page.mediaType).toBe('text/html');
  });

  it('stops a redirect loop, and a chain longer than the limit', async () => {
    await expect(fetchPage(`${server.url}/loop/a`, allowed)).rejects.toThrow(/redirects in a loop/);
    await expect(fetchPage(`${server.url}/hop/1`, { ...allowed, maxRedirects: 1 })).rejects.toThrow(
      /redirects more than 1 times/,
    );
  });

  it('cuts a 2 GB endless body at the size cap', async () => {
    const page = await fetchPage(`${server.url}/endless`, { ...allowed, maxBytes: 1024 * 1024 });
    expect(page.body.length).toBe(1024 * 1024);
    expect(page.truncated).toBe(true);
  });

  it('gives up on a page that never ends at the time limit', async () => {
    await expect(fetchPage(`${server.url}/never-ends`, { ...allowed, timeoutMs: 1000 })).rejects.toThrow(
      /did not finish loading within 1 seconds/,
    );
  });

  it('refuses other schemes and addresses with credentials', async () => {
    await expect(fetchPage('file:///etc/passwd', allowed)).rejects.toThrow(/only http and https/);
    await expect(fetchPage('ftp://example.com/', allowed)).rejects.toThrow(/only http and https/);
    await expect(fetchPage(`http://user:secret@127.0.0.1:${server.port}/`, allowed)).rejects.toThrow(
      /user name or password/,
    );
  });
});
