import { createHash } from 'node:crypto';
import type { Caller } from '../../shared/contract';
import {
  mcpCommandRefusal,
  type McpServerConfig,
  type McpStdioServerConfig,
  type McpUnconfirmedCommand,
} from '../../shared/mcp-domain';
import { AppError } from '../app-error';

/** The fingerprint of each stdio server's command as it was confirmed at the machine, by server id. */
export type CommandConfirmations = Record<string, string>;

function isStdio(server: McpServerConfig): server is McpStdioServerConfig {
  return server.transport === 'stdio';
}

/** What a stdio server runs, as one value: an edit of its command, arguments, environment or folder changes it. */
export function commandFingerprint(server: McpStdioServerConfig): string {
  const env = Object.entries(server.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const launch = JSON.stringify([server.command, server.args, env, server.cwd ?? null]);
  return createHash('sha256').update(launch).digest('hex');
}

/**
 * The confirmations once `requested` replaces `stored`. At the machine a command typed anew (added or
 * changed) is confirmed, as is each server named in `confirm`; every other keeps what it had. Any of that
 * from the browser host is `forbidden`, before anything is stored or run.
 */
export function confirmationsAfter(
  stored: readonly McpServerConfig[],
  requested: readonly McpServerConfig[],
  previous: CommandConfirmations,
  confirm: readonly string[],
  caller: Caller | undefined,
): CommandConfirmations {
  const atMachine = caller?.atMachine === true;
  if (!atMachine && confirm.length > 0) throw new AppError('forbidden', mcpCommandRefusal);
  const before = new Map(stored.filter(isStdio).map((server) => [server.id, commandFingerprint(server)]));
  const next: CommandConfirmations = {};
  for (const server of requested.filter(isStdio)) {
    const fingerprint = commandFingerprint(server);
    const typed = before.get(server.id) !== fingerprint;
    if (typed && !atMachine) throw new AppError('forbidden', mcpCommandRefusal);
    const kept = previous[server.id];
    if (typed || confirm.includes(server.id)) next[server.id] = fingerprint;
    else if (kept !== undefined) next[server.id] = kept;
  }
  return next;
}

/** The stdio servers whose command is not the one confirmed at the machine, with why, in plain words. */
export function unconfirmedCommands(
  servers: readonly McpServerConfig[],
  confirmations: CommandConfirmations,
): McpUnconfirmedCommand[] {
  return servers.filter(isStdio).flatMap((server) => {
    const confirmed = confirmations[server.id];
    if (confirmed === commandFingerprint(server)) return [];
    const why =
      confirmed === undefined
        ? 'it was saved before Kasten asked for confirmation, or outside Kasten'
        : 'it changed outside Kasten since it was confirmed';
    const reason =
      `Not confirmed: ${why}, so Kasten does not start it. Open Settings in the desktop app to confirm ` +
      `this command, or run \`kasten mcp confirm ${server.id}\` on this machine.`;
    return [{ id: server.id, reason }];
  });
}

/** The servers Kasten may start: every HTTP server, and the stdio servers confirmed as they are. */
export function startableServers(
  servers: readonly McpServerConfig[],
  confirmations: CommandConfirmations,
): McpServerConfig[] {
  const unconfirmed = new Set(unconfirmedCommands(servers, confirmations).map(({ id }) => id));
  return servers.filter((server) => !unconfirmed.has(server.id));
}
