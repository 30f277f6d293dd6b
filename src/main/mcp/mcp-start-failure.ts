import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../shared/mcp-domain';
import { exitDescription, isOversized, oversized } from './mcp-failures';
import type { WatchedStdioTransport } from './mcp-stdio-transport';

function errorCode(error: unknown): string | undefined {
  const code: unknown = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The innermost cause of a failed fetch, which names what went wrong (ECONNREFUSED, ENOTFOUND…). */
function networkCause(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = errorCode(current);
    if (code) return code;
    current = current.cause;
  }
  return undefined;
}

const networkWords: Record<string, string> = {
  ECONNREFUSED: 'nothing is listening there',
  ENOTFOUND: 'the host name is unknown',
  ECONNRESET: 'the connection was cut',
  ETIMEDOUT: 'the connection timed out',
};

/** Whether an error means an HTTP server could not be reached at all. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof TypeError && networkCause(error) !== undefined;
}

/** Plain words for why a server did not get ready, given what the process and the connection showed. */
export function startFailure(
  error: unknown,
  config: McpServerConfig,
  stdio: WatchedStdioTransport | null,
): string {
  const code = errorCode(error);
  if (config.transport === 'stdio') {
    if (code === 'ENOENT') return `could not run “${config.command}”: no such program`;
    if (code === 'EACCES') return `could not run “${config.command}”: not allowed to run it`;
    if (stdio?.exit) return exitDescription(stdio);
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return exitDescription(stdio);
  return problem(error, config);
}

/** Plain words for a failed request to a server that is (or was) running. */
export function problem(error: unknown, config: McpServerConfig): string {
  if (error instanceof StreamableHTTPError) {
    const status = error.code === undefined ? '' : ` (HTTP ${error.code})`;
    return `the server at ${config.transport === 'http' ? config.url : 'its URL'} refused the request${status}`;
  }
  if (config.transport === 'http' && isUnreachable(error)) {
    const cause = networkCause(error) ?? '';
    return `could not reach ${config.url}: ${networkWords[cause] ?? cause}`;
  }
  if (isOversized(error)) return oversized;
  return error instanceof Error ? error.message : String(error);
}
