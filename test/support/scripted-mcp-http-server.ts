import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpHttpServerConfig } from '../../src/shared/mcp-domain';
import { httpServerConfig } from './mcp-test-servers';

/** A tool as the scripted server lists it. */
export interface ScriptedTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface ScriptedMcpOptions {
  /** The tools listed, page by page when `pageSize` is set. */
  tools: () => ScriptedTool[];
  pageSize?: number;
  /** Answers a tool call, resolving once the reply ended or the client went; the default echoes the name. */
  call?: (name: string, id: unknown, response: ServerResponse) => Promise<void>;
}

export interface ScriptedMcpServer {
  config: McpHttpServerConfig;
  /** The replies to tool calls so far, each settled once it ended or the client went. */
  replies: Promise<void>[];
  stop(): Promise<void>;
}

/**
 * Writes a reply that never ends, `chunk` at a time as fast as the client reads it (or every `everyMs`),
 * until the client goes.
 */
export async function writeForever(
  response: ServerResponse,
  head: string,
  chunk = 'x'.repeat(64 * 1024),
  everyMs = 0,
): Promise<void> {
  response.write(head);
  const closed = once(response, 'close');
  while (!response.destroyed) {
    const waits = [closed, ...(everyMs ? [new Promise((resolve) => setTimeout(resolve, everyMs))] : [])];
    if (!response.write(chunk)) waits.push(once(response, 'drain'));
    await Promise.race(waits);
  }
}

function reply(response: ServerResponse, id: unknown, result: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

/** An MCP server over streamable HTTP on 127.0.0.1, in this process, answering as a script says. */
export async function startScriptedMcpServer(
  id: string,
  options: ScriptedMcpOptions,
): Promise<ScriptedMcpServer> {
  const replies: Promise<void>[] = [];
  const http = createServer((request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405).end();
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method: string; params?: Record<string, unknown> };
      if (message.id === undefined) return void response.writeHead(202).end();
      if (message.method === 'initialize') {
        return reply(response, message.id, {
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'scripted', version: '1.0.0' },
        });
      }
      if (message.method === 'tools/list') {
        const all = options.tools().map((tool) => ({ inputSchema: { type: 'object' }, ...tool }));
        const start = Number(message.params?.cursor ?? 0);
        const end = options.pageSize ? start + options.pageSize : all.length;
        const nextCursor = end < all.length ? String(end) : undefined;
        return reply(response, message.id, { tools: all.slice(start, end), nextCursor });
      }
      if (message.method === 'tools/call') {
        const name = String(message.params?.name);
        if (options.call) return void replies.push(options.call(name, message.id, response));
        return reply(response, message.id, { content: [{ type: 'text', text: `called ${name}` }] });
      }
      response.writeHead(404).end();
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    config: httpServerConfig(id, port),
    replies,
    async stop() {
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}
