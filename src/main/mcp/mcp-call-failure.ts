import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../shared/mcp-domain';
import { exitHow, isOversized, seconds } from './mcp-failures';
import { isUnreachable, problem } from './mcp-start-failure';
import type { McpSession } from './mcp-session';

/** A call's outcome: `message` is Kasten's words; `serverText` is what the server said, to be shown as untrusted. */
export type CallOutcome =
  { ok: true; result: CallToolResult } | { ok: false; message: string; serverText: string | null };

/** What a failed call tells about its server: gone (wait out the cool-down) or only its session lost. */
export type ServerLoss = { state: 'crashed' | 'stopped'; message: string } | null;

export interface FailedCall {
  error: unknown;
  config: McpServerConfig;
  session: McpSession;
  tool: string;
  callMs: number;
  cancelled: boolean;
  /** The session ended while the call was under way. */
  ended: boolean;
}

function failure(message: string, serverText: string | null = null): CallOutcome {
  return { ok: false, message, serverText };
}

/** Plain words for a failed call, for the model and the user. */
export function callFailure({
  error,
  config,
  session,
  tool,
  callMs,
  cancelled,
  ended,
}: FailedCall): CallOutcome {
  const server = `“${config.name}”`;
  if (cancelled) return failure('The call was cancelled.');
  if (ended || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    const exited = session.stdio?.exit || isOversized(session.transportError);
    const why = exited
      ? `it ${exitHow(session.stdio, session.transportError)}`
      : (session.lost ?? (session.closing ? 'it was stopped' : 'it closed the connection'));
    return failure(`MCP server ${server} stopped during the call: ${why}.`);
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return failure(`MCP tool “${tool}” on ${server} did not answer within ${seconds(callMs)}.`);
  }
  if (error instanceof McpError) return failure(`MCP server ${server} refused the call.`, error.message);
  return failure(`MCP tool “${tool}” on ${server} failed: ${problem(error, config)}.`);
}

/** Whether a failed call to an HTTP server means it is gone (unreachable) or forgot the session (404). */
export function serverLoss(error: unknown, config: McpServerConfig): ServerLoss {
  if (config.transport !== 'http') return null;
  if (isUnreachable(error)) return { state: 'crashed', message: problem(error, config) };
  if (error instanceof StreamableHTTPError && error.code === 404) {
    return { state: 'stopped', message: 'the server ended the session; it is reconnected when next needed' };
  }
  return null;
}
