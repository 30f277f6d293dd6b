import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../shared/mcp-domain';
import { ReplyCut } from './mcp-http-fetch';
import { maxStdioMessageBytes, type WatchedStdioTransport } from './mcp-stdio-transport';

const oversized = `sent a message larger than ${maxStdioMessageBytes / 1024 / 1024} MB`;

/** "10 s", "1.5 s": how long a wait was, for messages. */
export function seconds(ms: number): string {
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/** How the connection ended, as seen from the process: "exited with code 1". */
export function exitHow(stdio: WatchedStdioTransport | null, transportError?: unknown): string {
  if (isOversized(transportError)) return oversized;
  const exit = stdio?.exit;
  if (!exit) return 'closed the connection';
  return exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** How the connection ended, with the last line the server wrote to stderr: "exited with code 1: …". */
export function exitDescription(stdio: WatchedStdioTransport | null, transportError?: unknown): string {
  const how = exitHow(stdio, transportError);
  const last = stdio?.stderrTail.lastLine();
  return last ? `${how}: ${last}` : how;
}

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

/** Whether the transport gave up on a message too large to read (it then closes the connection). */
export function isOversized(error: unknown): boolean {
  if (error instanceof ReplyCut) return error.reason === 'oversized';
  return error instanceof Error && error.message.includes('ReadBuffer exceeded');
}

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
