import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpServers } from '../../src/main/mcp/mcp-servers';
import { startHttpTestServer, waitFor, type HttpTestServer } from '../support/mcp-test-servers';

let dir: string;
let servers: McpServers;
let http: HttpTestServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasten-mcp-'));
  servers = new McpServers();
  http = await startHttpTestServer('web', { MCP_TEST_CALL_LOG: join(dir, 'calls.log') });
});
afterEach(async () => {
  vi.useRealTimers();
  await servers.dispose();
  await http.stop();
  rmSync(dir, { recursive: true, force: true });
});

const never = new AbortController().signal;

describe('MCP servers over streamable HTTP', () => {
  it('works the same with a server over streamable HTTP', async () => {
    await servers.configure([http.config]);

    const { tools, notices } = await servers.tools(never);
    const echo = await servers.call('mcp__web__echo', { text: 'over http' }, never);

    expect(notices).toEqual([]);
    expect(tools.map((tool) => tool.qualifiedName)).toContain('mcp__web__echo');
    expect(servers.statuses()[0]?.state).toBe('ready');
    expect(echo).toMatchObject({ ok: true, output: expect.stringContaining('\nover http\n') });
  });

  it('fails a call to an HTTP server that went away, and reports it stopped working', async () => {
    await servers.configure([http.config]);
    await servers.tools(never);
    await http.stop();

    const echo = await servers.call('mcp__web__echo', { text: 'anyone?' }, never);
    const { tools, notices } = await servers.tools(never);

    expect(echo).toEqual({
      ok: false,
      output: `MCP tool “echo” on “web” failed: could not reach ${http.config.url}: nothing is listening there.`,
    });
    expect(tools).toEqual([]);
    expect(notices).toEqual([
      `MCP server “web” stopped working: could not reach ${http.config.url}: nothing is listening there; the chat goes on without its tools.`,
    ]);
  });

  it('fails a call at once when the server goes away in the middle of it', async () => {
    await servers.configure([http.config]);
    await servers.tools(never);
    const calls = join(dir, 'calls.log');

    // The fake clock stands still, so the 60 s call timeout cannot end this call: only the cut can.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let done = false;
    const call = servers.call('mcp__web__slow', { ms: 60_000 }, never).finally(() => (done = true));
    await waitFor(() => existsSync(calls) && readFileSync(calls, 'utf8').includes('slow'));
    await http.stop();
    await waitFor(() => done);
    vi.useRealTimers();

    expect(await call).toEqual({
      ok: false,
      output: 'MCP server “web” stopped during the call: the connection to it was cut.',
    });
    expect(servers.statuses()[0]).toMatchObject({
      state: 'crashed',
      message: 'the connection to the server was cut',
    });
  });
});
