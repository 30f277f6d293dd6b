import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The most tools Kasten takes from one server: a model is not helped by more, and each costs the window. */
export const maxToolsPerServer = 128;
/** The most bytes of tool definitions (names, descriptions, schemas) taken from one server. */
export const maxListingBytes = 1024 * 1024;
/** More pages than this in a tool list is a server stuck in a loop. */
const maxToolPages = 20;
/** Tool descriptions are the server's words sent with every request; a longer one is cut. */
const maxDescriptionChars = 4_000;

/** A tool as the server lists it. */
export interface ListedTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, as the server gave it. */
  inputSchema: Record<string, unknown>;
}

export interface ToolListing {
  tools: ListedTool[];
  /** Set when the server listed more than Kasten takes, in words for the chat. */
  notice: string | null;
}

/** A page as it comes: its tools are checked one by one, and only those kept (the SDK checks them all). */
const pageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

function listed(tool: Tool): ListedTool {
  const description = tool.description ?? '';
  return {
    name: tool.name,
    description:
      description.length > maxDescriptionChars
        ? `${description.slice(0, maxDescriptionChars)}…`
        : description,
    inputSchema: tool.inputSchema,
  };
}

const count = (value: number) => value.toLocaleString('en-US');

/**
 * The server's tools, page by page, up to `maxToolsPerServer` tools and `maxListingBytes` of their
 * definitions; past either the rest is not read, and the notice says how many were listed.
 */
export async function listTools(client: Client, server: string, timeout: number): Promise<ToolListing> {
  const tools: ListedTool[] = [];
  let bytes = 0;
  let seen = 0;
  let full: 'count' | 'bytes' | null = null;
  let cursor: string | undefined;
  for (let page = 0; page < maxToolPages && !full; page++) {
    const request = { method: 'tools/list' as const, params: cursor ? { cursor } : {} };
    const result = await client.request(request, pageSchema, { timeout });
    seen += result.tools.length;
    for (const entry of result.tools) {
      const parsed = ToolSchema.safeParse(entry);
      if (!parsed.success) continue;
      const tool = listed(parsed.data);
      const size = Buffer.byteLength(JSON.stringify(tool));
      full = tools.length >= maxToolsPerServer ? 'count' : bytes + size > maxListingBytes ? 'bytes' : null;
      if (full) break;
      tools.push(tool);
      bytes += size;
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  if (!full && !cursor) return { tools, notice: null };
  const listedCount = cursor ? `more than ${count(seen)}` : count(seen);
  const why =
    full === 'bytes' ? `, as many as fit in ${maxListingBytes / 1024 / 1024} MB of definitions` : '';
  return {
    tools,
    notice: `MCP server “${server}” lists ${listedCount} tools; Kasten uses the first ${count(tools.length)}${why}.`,
  };
}
