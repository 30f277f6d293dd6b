import { resolve } from 'node:path';
import type { McpServersView } from '../../shared/items-contract';
import type { McpServerConfig } from '../../shared/mcp-domain';
import type { KastenApp } from '../app';
import { CliUsageError } from './cli-arguments';
import { call } from './cli-call';

export const mcpCommandUsage = `  kasten mcp list [--json]                                  the MCP servers; commands not confirmed are never run
  kasten mcp add <id> [--name N] [--env K=V]... [--cwd DIR] -- <command> [arg]...
                                                            add (or replace) a program Kasten may run, confirmed
  kasten mcp add <id> --url URL [--name N]                  add (or replace) a server at a URL
  kasten mcp remove <id>                                    take a server out
  kasten mcp confirm <id>                                   let Kasten run a stored command it did not confirm`;

export interface McpCommandFlags {
  json: boolean;
  name?: string;
  url?: string;
  cwd?: string;
  env: string[];
}

const verbs = ['list', 'add', 'remove', 'confirm'] as const;

/** `--env K=V` flags as the environment of the program. */
function environment(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new CliUsageError(`--env takes NAME=VALUE, not "${pair}".`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** The server `kasten mcp add` describes, before the contract's schema checks it. */
function addedServer(id: string, program: string[], flags: McpCommandFlags): unknown {
  const common = { id, name: flags.name ?? id };
  if (flags.url !== undefined) {
    if (program.length > 0) throw new CliUsageError('Give either --url or a command, not both.');
    return { ...common, transport: 'http', url: flags.url };
  }
  const [command, ...args] = program;
  if (command === undefined) throw new CliUsageError('kasten mcp add needs a command (after --) or --url.');
  const cwd = flags.cwd === undefined ? {} : { cwd: resolve(flags.cwd) };
  return { ...common, transport: 'stdio', command, args, env: environment(flags.env), ...cwd };
}

function where(server: McpServerConfig): string {
  return server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
}

/**
 * `kasten mcp`: the MCP servers, changed through the contract as the user at this machine, so a command
 * added or confirmed here is one Kasten may run (the browser host cannot do either).
 */
export async function runMcpCommand(
  rest: string[],
  flags: McpCommandFlags,
  open: () => Promise<Pick<KastenApp, 'handlers' | 'dispose'>>,
  stdout: (text: string) => void,
): Promise<number> {
  const [verb, id, ...program] = rest;
  if (!(verbs as readonly (string | undefined)[]).includes(verb))
    throw new CliUsageError(`kasten mcp needs one of ${verbs.join(', ')}.`);
  if (verb !== 'list' && id === undefined) throw new CliUsageError(`kasten mcp ${verb} needs a server id.`);
  if (verb !== 'add' && program.length > 0) throw new CliUsageError(`Unexpected argument "${program[0]}".`);
  const app = await open();
  try {
    const listed = await call(app, 'mcp:servers', undefined);
    if (verb === 'list') return printServers(listed, flags.json, stdout);
    const others = listed.servers.filter((server) => server.id !== id);
    if (verb !== 'add' && others.length === listed.servers.length)
      throw new Error(`There is no MCP server "${id}".`);
    const servers =
      verb === 'add'
        ? [...others, addedServer(id!, program, flags)]
        : verb === 'remove'
          ? others
          : listed.servers;
    const view = await call(app, 'mcp:configure', { servers, confirm: verb === 'confirm' ? [id] : [] });
    return printServers(view, flags.json, stdout);
  } finally {
    await app.dispose();
  }
}

/** The servers, one a line, each unconfirmed command with why; exits with 0. */
function printServers(view: McpServersView, json: boolean, stdout: (text: string) => void): number {
  if (json) {
    stdout(JSON.stringify({ servers: view.servers, unconfirmed: view.unconfirmed }, null, 2));
    return 0;
  }
  if (view.servers.length === 0) stdout('No MCP servers.');
  for (const server of view.servers) {
    const unconfirmed = view.unconfirmed.find((entry) => entry.id === server.id);
    const state = !server.enabled ? 'off' : unconfirmed ? 'not confirmed' : 'on';
    stdout(`${server.id.padEnd(16)} ${state.padEnd(13)} ${server.name}  (${where(server)})`);
    if (unconfirmed) stdout(`                 ${unconfirmed.reason}`);
  }
  return 0;
}
