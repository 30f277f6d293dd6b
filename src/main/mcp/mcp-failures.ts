import { ReplyCut } from './mcp-http-fetch';
import { maxStdioMessageBytes } from './mcp-message-limit';
import type { WatchedStdioTransport } from './mcp-stdio-transport';

/** What a server that sent a message over the limit did, in words. */
export const oversized = `sent a message larger than ${maxStdioMessageBytes / 1024 / 1024} MB`;

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

/** Whether the transport gave up on a message too large to read (it then closes the connection). */
export function isOversized(error: unknown): boolean {
  if (error instanceof ReplyCut) return error.reason === 'oversized';
  return error instanceof Error && error.message.includes('ReadBuffer exceeded');
}
