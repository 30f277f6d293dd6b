import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../shared/mcp-domain';
import { version } from '../version';
import { isOversized } from './mcp-failures';
import { listTools, type ListedTool } from './mcp-tool-listing';
import { cappedFetch, replyDeadlineWords } from './mcp-http-fetch';
import { maxStdioMessageBytes } from './mcp-message-limit';
import { WatchedStdioTransport } from './mcp-stdio-transport';

export type { ListedTool } from './mcp-tool-listing';

/** One run of a server: the SDK client, its transport and what was seen on it. */
export interface McpSession {
  client: Client;
  stdio: WatchedStdioTransport | null;
  tools: ListedTool[];
  /** Set when the server lists more tools than Kasten takes. */
  listingNotice: string | null;
  /** Set when Kasten closes the session itself, so its end is not taken for a crash. */
  closing: boolean;
  /** Output that was not an MCP message: banners, logs on stdout, garbage. */
  strayOutput: number;
  /** The last error the transport reported, kept to explain why it closed. */
  transportError: unknown;
  /** Aborts the calls under way, for when the connection is cut without the SDK noticing. */
  calls: Set<AbortController>;
  /** Why Kasten gave up on the session, in words that follow "stopped during the call:". */
  lost: string | null;
}

/** What a session tells its connection about, besides replies. */
export interface SessionEvents {
  toolsChanged(): void;
  /** An HTTP response stream broke: the SDK leaves its requests waiting for their timeouts. */
  streamCut(): void;
}

/** How long a listing after the server said its tools changed may take. */
const relistTimeoutMs = 10_000;

/** A session not yet connected. */
export function openSession(config: McpServerConfig, events: SessionEvents): McpSession {
  const stdio = config.transport === 'stdio' ? new WatchedStdioTransport(config) : null;
  const session: McpSession = {
    client: new Client({ name: 'kasten', version }, { capabilities: {} }),
    stdio,
    tools: [],
    listingNotice: null,
    closing: false,
    strayOutput: 0,
    transportError: null,
    calls: new Set(),
    lost: null,
  };
  session.client.onerror = (error) => {
    session.strayOutput++;
    // After refusing an oversized message the transport reads its tail as garbage; the refusal explains more.
    if (!isOversized(session.transportError)) session.transportError = error;
    // A stream Kasten cut at its deadline belongs to a call that already timed out; the server may be fine.
    const cutByDeadline = error.message.includes(replyDeadlineWords);
    if (error.message.startsWith('SSE stream disconnected') && !cutByDeadline) events.streamCut();
  };
  // Listed again through the same caps as the first time (the SDK's own refresh reads every tool).
  let relisting: Promise<void> | null = null;
  let again = false;
  const relist = async (): Promise<void> => {
    do {
      again = false;
      const listing = await listTools(session.client, config.name, relistTimeoutMs).catch(() => null);
      if (listing && !session.closing) {
        session.tools = listing.tools;
        session.listingNotice = listing.notice;
        events.toolsChanged();
      }
    } while (again);
    relisting = null;
  };
  session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    if (relisting) again = true;
    else relisting = relist();
  });
  return session;
}

/**
 * Connects (spawn or first request, then `initialize`) and lists the tools, each step within `timeout`;
 * no reply from an HTTP server is read for longer than `replyMs` (a call's timeout).
 */
export async function connectSession(
  session: McpSession,
  config: McpServerConfig,
  timeout: number,
  replyMs: number,
): Promise<void> {
  const transport =
    session.stdio ??
    (config.transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(config.url), {
          requestInit: { headers: config.headers },
          fetch: cappedFetch({
            maxBytes: maxStdioMessageBytes,
            maxMs: replyMs,
            cut: (error) => {
              if (isOversized(error)) session.transportError = error;
            },
          }),
        })
      : null);
  if (!transport) throw new Error('no transport for this server');
  await session.client.connect(transport, { timeout });
  const listing = await listTools(session.client, config.name, timeout);
  session.tools = listing.tools;
  session.listingNotice = listing.notice;
}
