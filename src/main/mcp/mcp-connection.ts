import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig, McpServerState, McpServerStatus } from '../../shared/mcp-domain';
import { importOnFirstUse } from '../lazy-import';
import type { CallOutcome } from './mcp-call-failure';
import { exitDescription, exitHow, isOversized, seconds } from './mcp-failures';
import type { ListedTool, McpSession } from './mcp-session';

/** The SDK and what runs on it, imported when the first server starts (see mcp-client.ts). */
const mcpClient = importOnFirstUse(
  'the MCP client (@modelcontextprotocol/sdk)',
  () => import('./mcp-client'),
);
type McpClient = Awaited<ReturnType<typeof mcpClient>>;

/** How long Kasten waits for MCP servers, and how long it leaves a failed one alone. */
export interface McpTimeouts {
  /** Spawn or first request, `initialize` and the tool list together. */
  startMs: number;
  /** One tool call. */
  callMs: number;
  /** After a failed start or a crash, `tools()` reports the failure again instead of retrying. */
  coolDownMs: number;
}

export const defaultMcpTimeouts: McpTimeouts = { startMs: 10_000, callMs: 60_000, coolDownMs: 30_000 };

export type ToolsOutcome =
  { ok: true; tools: ListedTool[]; notice: string | null } | { ok: false; message: string };

/** One configured MCP server: started on demand, watched for crashes, restarted after a cool-down. */
export class McpConnection {
  private session: McpSession | null = null;
  private starting: Promise<ToolsOutcome> | null = null;
  private state: McpServerState = 'stopped';
  private message: string | null = null;
  private failedAt = 0;
  private startedAt: string | undefined;
  private disposed = false;
  /** Sessions being closed in the background; `dispose()` waits for them too. */
  private readonly closing = new Set<Promise<void>>();

  constructor(
    public config: McpServerConfig,
    private readonly timeouts: McpTimeouts,
    private readonly changed: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Where the server stands, in words for the user. */
  status(): McpServerStatus {
    const tools = this.state === 'ready' ? (this.session?.tools ?? []) : [];
    return {
      id: this.config.id,
      name: this.config.name,
      state: this.state,
      message: this.message,
      tools: tools.map(({ name, description }) => ({ name, description })),
      ...(this.state === 'ready' && this.startedAt ? { startedAt: this.startedAt } : {}),
    };
  }

  /** The tools of the server while it runs; none when it is not ready (nothing is started). */
  readyTools(): ListedTool[] {
    return this.state === 'ready' ? (this.session?.tools ?? []) : [];
  }

  /** The server's tools, starting it when needed; within the cool-down a failure is reported, not retried. */
  tools(): Promise<ToolsOutcome> {
    const ready = this.state === 'ready' ? this.session : null;
    if (ready) return Promise.resolve({ ok: true, tools: ready.tools, notice: ready.listingNotice });
    if (this.starting) return this.starting;
    const resting = this.state === 'failed' || this.state === 'crashed';
    if (this.disposed || (resting && this.now() - this.failedAt < this.timeouts.coolDownMs)) {
      return Promise.resolve({ ok: false, message: this.message ?? 'it is stopped' });
    }
    this.starting = this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Calls a tool, starting the server when needed; every failure is a value with plain words. */
  async call(tool: string, input: Record<string, unknown>, signal: AbortSignal): Promise<CallOutcome> {
    const ready = await this.tools();
    if (signal.aborted) return { ok: false, message: 'The call was cancelled.', serverText: null };
    const session = this.session;
    if (!ready.ok || !session) {
      const why = ready.ok ? 'it stopped' : ready.message;
      return {
        ok: false,
        message: `MCP server “${this.config.name}” is not available: ${why}.`,
        serverText: null,
      };
    }
    const cut = new AbortController();
    session.calls.add(cut);
    try {
      const options = { timeout: this.timeouts.callMs, signal: AbortSignal.any([signal, cut.signal]) };
      const result = await session.client.callTool({ name: tool, arguments: input }, undefined, options);
      // The SDK parsed the reply with its CallToolResult schema (the default); only its type is wider.
      if (Array.isArray(result.content)) return { ok: true, result: result as CallToolResult };
      return { ok: true, result: { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }] } };
    } catch (error) {
      const { callFailure, serverLoss } = await mcpClient();
      const ended = this.session !== session;
      const { callMs } = this.timeouts;
      const failed = { error, config: this.config, session, tool, callMs, cancelled: signal.aborted, ended };
      const outcome = callFailure(failed);
      const loss = ended ? null : serverLoss(error, this.config);
      // Connect afresh on a later demand: after the cool-down when the server is gone.
      if (loss) this.drop(session, loss.state, loss.message);
      return outcome;
    } finally {
      session.calls.delete(cut);
    }
  }

  /** Stops the server for good; resolves once its process is gone. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const session = this.session;
    this.session = null;
    this.setState('stopped', null);
    if (session) this.retire(session);
    await Promise.all(this.closing);
  }

  private async start(): Promise<ToolsOutcome> {
    this.setState('starting', null);
    // The start's time runs from here, loading the SDK included: the chat waits no longer for it.
    const { startMs } = this.timeouts;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, startMs, 'timeout')));
    try {
      return await this.connect(deadline);
    } finally {
      clearTimeout(timer);
    }
  }

  private async connect(deadline: Promise<'timeout'>): Promise<ToolsOutcome> {
    let client: McpClient;
    try {
      client = await mcpClient();
    } catch (error) {
      // Failed like a server that did not start: said in the chat, tried again after the cool-down.
      const message = error instanceof Error ? error.message : String(error);
      return this.disposed ? { ok: false, message } : this.failed(message);
    }
    if (this.disposed) return { ok: false, message: 'it was stopped while starting' };
    const { connectSession, openSession, McpError, ErrorCode } = client;
    const session = openSession(this.config, {
      toolsChanged: () => this.changed(),
      streamCut: () => this.streamCut(session),
    });
    this.session = session;
    session.client.onclose = () => this.closed(session);
    try {
      const { startMs, callMs } = this.timeouts;
      const outcome = await Promise.race([connectSession(session, this.config, startMs, callMs), deadline]);
      if (outcome === 'timeout') throw new McpError(ErrorCode.RequestTimeout, 'start timed out');
    } catch (error) {
      return this.startFailed(session, error, client);
    }
    if (this.session !== session) return { ok: false, message: 'it was stopped while starting' };
    this.startedAt = new Date(this.now()).toISOString();
    this.setState('ready', null);
    return { ok: true, tools: session.tools, notice: session.listingNotice };
  }

  private startFailed(
    session: McpSession,
    error: unknown,
    { McpError, ErrorCode, startFailure }: McpClient,
  ): ToolsOutcome {
    const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
    const stray = session.stdio && session.strayOutput ? strayNote(session.strayOutput) : '';
    const message = timedOut
      ? `did not answer within ${seconds(this.timeouts.startMs)}${stray}`
      : startFailure(error, this.config, session.stdio);
    // Closing kills a hung process; only dispose() waits for it.
    this.retire(session);
    if (this.disposed || (this.session !== session && this.session !== null)) return { ok: false, message };
    this.session = null;
    return this.failed(message);
  }

  private failed(message: string): ToolsOutcome {
    this.failedAt = this.now();
    this.setState('failed', message);
    return { ok: false, message };
  }

  /** The connection ended: a crash unless Kasten closed it. */
  private closed(session: McpSession): void {
    if (session.closing || this.session !== session || this.state !== 'ready') return;
    this.session = null;
    this.failedAt = this.now();
    this.setState('crashed', exitDescription(session.stdio, session.transportError));
  }

  /** An HTTP stream broke: take the server for gone, so calls fail now rather than at their timeout. */
  private streamCut(session: McpSession): void {
    if (this.session !== session || this.state !== 'ready') return;
    const oversized = isOversized(session.transportError);
    session.lost = oversized ? exitHow(null, session.transportError) : 'the connection to it was cut';
    this.drop(session, 'crashed', oversized ? session.lost : 'the connection to the server was cut');
    for (const call of session.calls) call.abort();
  }

  private drop(session: McpSession, state: 'crashed' | 'stopped', message: string): void {
    this.session = null;
    this.failedAt = this.now();
    this.setState(state, message);
    this.retire(session);
  }

  /** Closes the session and, for a child process, resolves `dispose()` only once it is gone. */
  private retire(session: McpSession): void {
    // Marked first, so that its end is not taken for a crash.
    session.closing = true;
    const closed = session.client
      .close()
      .catch(() => undefined)
      .finally(() => this.closing.delete(closed));
    this.closing.add(closed);
  }

  private setState(state: McpServerState, message: string | null): void {
    this.state = state;
    this.message = message;
    this.changed();
  }
}

function strayNote(lines: number): string {
  return `; it wrote ${lines === 1 ? 'a line' : `${lines} lines`} that ${lines === 1 ? 'is' : 'are'} not MCP`;
}
