import type { McpIncludeMode, McpServerConfig, McpServerStatus } from '../../shared/mcp-domain';
import { defaultMcpTimeouts, McpConnection, type McpTimeouts, type ToolsOutcome } from './mcp-connection';
import { seconds } from './mcp-failures';
import type { ListedTool } from './mcp-session';
import { maxToolOutputChars, toolResultText, wrapUntrusted } from './mcp-tool-output';
import { ToolNames } from './mcp-tool-names';

/** A tool of an MCP server, as offered to the model. */
export interface McpTool {
  /** The server's id. */
  server: string;
  serverName: string;
  /** The tool's name on its server. */
  tool: string;
  /** The name the model calls it by: `mcp__<server>__<tool>`, in `[A-Za-z0-9_-]`, at most 64 characters. */
  qualifiedName: string;
  description: string;
  /** JSON Schema of the arguments, as the server gave it. */
  inputSchema: Record<string, unknown>;
  include: McpIncludeMode;
}

export interface McpToolList {
  tools: McpTool[];
  /** One sentence per server that is not available, for the chat to show. */
  notices: string[];
}

/** What a call gives the model: data from the server comes wrapped and labelled as untrusted. */
export interface McpCallOutcome {
  ok: boolean;
  output: string;
}

export type McpStatusListener = (statuses: McpServerStatus[]) => void;

export interface McpServersOptions extends Partial<McpTimeouts> {
  /** The clock the cool-down is measured with. */
  now?: () => number;
}

/** What restarts a server: everything but its name and include modes. */
function launchOf({ name: _name, include: _include, tools: _tools, ...launch }: McpServerConfig): string {
  return JSON.stringify(launch);
}

function isArguments(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/** The configured MCP servers: started on demand, never holding up a chat, their tools offered to the model. */
export class McpServers {
  private readonly connections = new Map<string, McpConnection>();
  private readonly names = new ToolNames();
  private readonly listeners = new Set<McpStatusListener>();
  private readonly timeouts: McpTimeouts;
  private readonly now: () => number;

  constructor({ now = Date.now, ...timeouts }: McpServersOptions = {}) {
    this.timeouts = { ...defaultMcpTimeouts, ...timeouts };
    this.now = now;
  }

  /** Applies the servers from Settings; those removed, turned off or launched differently are stopped. */
  async configure(configs: McpServerConfig[]): Promise<void> {
    const wanted = new Map(configs.map((config) => [config.id, config]));
    const stopping: Promise<void>[] = [];
    for (const [id, connection] of this.connections) {
      const next = wanted.get(id);
      if (next && launchOf(next) === launchOf(connection.config)) {
        connection.config = next;
        continue;
      }
      this.connections.delete(id);
      if (!next) this.names.forget(id);
      stopping.push(connection.dispose());
    }
    for (const config of configs) {
      if (this.connections.has(config.id)) continue;
      this.connections.set(config.id, new McpConnection(config, this.timeouts, () => this.emit(), this.now));
    }
    this.emit();
    await Promise.all(stopping);
  }

  /**
   * The tools of every enabled server, starting those not running, all at once. Waits at most the start
   * timeout: a server that is not ready by then gives a notice and no tools, and the chat goes on.
   */
  async tools(signal?: AbortSignal): Promise<McpToolList> {
    const enabled = [...this.connections.values()].filter((connection) => connection.config.enabled);
    if (signal?.aborted) return { tools: [], notices: [] };
    const settled = new Map<McpConnection, ToolsOutcome>();
    const all = Promise.all(
      enabled.map((connection) => connection.tools().then((outcome) => settled.set(connection, outcome))),
    );
    let timer: NodeJS.Timeout | undefined;
    let stop = () => {};
    const given = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.timeouts.startMs);
      stop = resolve;
      signal?.addEventListener('abort', stop, { once: true });
    });
    await Promise.race([all, given]);
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    const list: McpToolList = { tools: [], notices: [] };
    for (const connection of enabled) {
      const outcome = settled.get(connection);
      if (outcome?.ok) {
        list.tools.push(...outcome.tools.map((tool) => this.offered(connection.config, tool)));
        if (outcome.notice) list.notices.push(outcome.notice);
      } else if (!signal?.aborted) list.notices.push(this.notice(connection, outcome));
    }
    return list;
  }

  /** The tools of the enabled servers running now, starting none: what the context meter counts. */
  running(): McpTool[] {
    return [...this.connections.values()]
      .filter((connection) => connection.config.enabled)
      .flatMap((connection) => connection.readyTools().map((tool) => this.offered(connection.config, tool)));
  }

  /** Runs a tool by its qualified name; every failure is a value in plain words for the model. */
  async call(qualifiedName: string, input: unknown, signal: AbortSignal): Promise<McpCallOutcome> {
    const address = this.names.lookup(qualifiedName);
    const connection = address && this.connections.get(address.server);
    if (!address || !connection) {
      return { ok: false, output: `There is no MCP tool named "${qualifiedName}".` };
    }
    const { config } = connection;
    if (!config.enabled) return { ok: false, output: `MCP server “${config.name}” is turned off.` };
    if (!isArguments(input)) {
      return { ok: false, output: `The arguments of ${qualifiedName} must be an object.` };
    }
    const outcome = await connection.call(address.tool, input, signal);
    if (outcome.ok) {
      const output = wrapUntrusted(config.id, address.tool, toolResultText(outcome.result));
      return { ok: outcome.result.isError !== true, output };
    }
    if (outcome.serverText === null) return { ok: false, output: outcome.message };
    const said = outcome.serverText.slice(0, maxToolOutputChars);
    return { ok: false, output: `${outcome.message}\n${wrapUntrusted(config.id, address.tool, said)}` };
  }

  /** Every configured server, enabled or not, with its state and tools. */
  statuses(): McpServerStatus[] {
    return [...this.connections.values()].map((connection) => connection.status());
  }

  /** Hears every change of any server's status; returns the function that stops listening. */
  onStatus(listener: McpStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every server; resolves once their processes are gone. */
  async dispose(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.dispose()));
    this.listeners.clear();
  }

  private offered(config: McpServerConfig, tool: ListedTool): McpTool {
    return {
      server: config.id,
      serverName: config.name,
      tool: tool.name,
      qualifiedName: this.names.name(config.id, tool.name),
      description: tool.description,
      inputSchema: tool.inputSchema,
      include: config.tools[tool.name] ?? config.include,
    };
  }

  private notice(connection: McpConnection, outcome: ToolsOutcome | undefined): string {
    const { name, state } = connection.status();
    const why =
      outcome && !outcome.ok ? outcome.message : `did not answer within ${seconds(this.timeouts.startMs)}`;
    const what = state === 'crashed' ? 'stopped working' : 'did not start';
    return `MCP server “${name}” ${what}: ${why}; the chat goes on without its tools.`;
  }

  private emit(): void {
    const statuses = this.statuses();
    for (const listener of this.listeners) listener(statuses);
  }
}
