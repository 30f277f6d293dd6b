import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../src/main/mcp/mcp-servers';
import {
  startScriptedMcpServer,
  writeForever,
  type ScriptedMcpServer,
} from '../support/scripted-mcp-http-server';

let servers: McpServers | null = null;
let mcp: ScriptedMcpServer | null = null;
afterEach(async () => {
  await servers?.dispose();
  await mcp?.stop();
});

const never = new AbortController().signal;

/** The start of a reply whose text never ends, as JSON or as one event of a stream. */
function endless(name: string, id: unknown, response: ServerResponse): Promise<void> {
  const start = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  const events = name === 'endless_events';
  response.writeHead(200, { 'content-type': events ? 'text/event-stream' : 'application/json' });
  if (name === 'trickle') return writeForever(response, start, 'x', 200);
  return writeForever(response, events ? `event: message\ndata: ${start}` : start);
}

async function serve(options: ConstructorParameters<typeof McpServers>[0] = {}): Promise<McpServers> {
  mcp = await startScriptedMcpServer('web', {
    tools: () => ['endless_json', 'endless_events', 'trickle', 'echo'].map((name) => ({ name })),
    call: async (name, id, response) => {
      if (name !== 'echo') return endless(name, id, response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'still here' }] } }),
      );
    },
  });
  servers = new McpServers(options);
  await servers.configure([mcp.config]);
  await servers.tools(never);
  return servers;
}

/** The most the process's resident memory grew, sampled every 20 ms while `work` runs. */
async function rssGrowth<T>(work: Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await work;
    return { result, growth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(sampler);
  }
}

describe('replies from an HTTP MCP server', () => {
  for (const tool of ['endless_json', 'endless_events']) {
    it(`a reply that never ends (${tool}) fails the call in words past 32 MB, its read aborted, and the next call goes on`, async () => {
      const servers = await serve({ coolDownMs: 0 });

      const { result, growth } = await rssGrowth(servers.call(`mcp__web__${tool}`, {}, never));
      await Promise.all(mcp!.replies);
      const next = await servers.call('mcp__web__echo', {}, never);

      console.log(`${tool}: RSS grew by ${(growth / 1024 / 1024).toFixed(1)} MB`);
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(/“web”.*sent a message larger than 32 MB/);
      expect(growth).toBeLessThan(100 * 1024 * 1024);
      expect(next).toMatchObject({ ok: true, output: expect.stringContaining('still here') });
    });
  }

  it('a reply still coming at the call timeout fails the call, and its read is aborted', async () => {
    const servers = await serve({ callMs: 1_000 });

    const result = await servers.call('mcp__web__trickle', {}, never);
    await Promise.all(mcp!.replies);

    expect(result).toEqual({ ok: false, output: 'MCP tool “trickle” on “web” did not answer within 1 s.' });
    expect(servers.statuses()[0]?.state).toBe('ready');
  });
});
