import { ChildProcess, spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpStdioServerConfig } from '../../shared/mcp-domain';
import { ChunkedReadBuffer } from './mcp-line-buffer';
import { maxStdioMessageBytes } from './mcp-message-limit';
import { ServerProcesses } from './mcp-process-group';
import { StderrTail } from './mcp-stderr-tail';

/** How long to wait for the child to go after each signal. */
const graceMs = 2_000;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What a stdio server is given to run with: a minimal environment plus the configured variables. */
export function serverEnvironment(config: McpStdioServerConfig, mark: Record<string, string>) {
  return { ...getDefaultEnvironment(), ...config.env, ...mark };
}

/**
 * The SDK's stdio transport, spawning the server in a process group of its own (on POSIX) with a minimal
 * environment plus the configured `env` (never the app's own, which holds API keys), plus what messages
 * and `dispose()` need: the stderr tail, how the child exited, and a close that returns only once the
 * server and every process it started are gone.
 */
export class WatchedStdioTransport extends StdioClientTransport {
  readonly stderrTail = new StderrTail();
  /** Set from the moment the child exits; the SDK reports only that the connection closed. */
  exit: ProcessExit | null = null;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly buffer = new ChunkedReadBuffer(maxStdioMessageBytes);
  private readonly processes = new ServerProcesses();

  constructor(private readonly config: McpStdioServerConfig) {
    super({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      stderr: 'pipe',
      maxBufferSize: maxStdioMessageBytes,
    });
    // The SDK keeps its read buffer private; swap in one that reads a large reply in linear time.
    const sdkBuffer: unknown = Reflect.get(this, '_readBuffer');
    if (sdkBuffer instanceof ReadBuffer) Reflect.set(this, '_readBuffer', this.buffer);
    const stderr = this.stderr;
    if (stderr instanceof Readable) {
      stderr.setEncoding('utf8');
      stderr.on('data', (text: string) => this.stderrTail.push(text));
    }
  }

  override async start(): Promise<void> {
    // Windows has no process groups to kill; the SDK's spawn (through cross-spawn) does there.
    if (process.platform === 'win32') await super.start();
    else await this.spawnInOwnGroup();
    // The SDK keeps the child private and drops its exit code; read it while the SDK still holds it.
    const child: unknown = Reflect.get(this, '_process');
    if (child instanceof ChildProcess) {
      this.child = child;
      if (child.pid !== undefined && process.platform !== 'win32') this.processes.started(child.pid);
      this.exited = new Promise((resolve) => {
        child.once('exit', (code, signal) => {
          this.exit = { code, signal };
          resolve();
        });
      });
    }
  }

  /**
   * Ends stdin, then SIGTERM, then SIGKILL, 2 s apart, and returns once the child is gone; then the same
   * signals, as long as any is left, to what the server started (its group and the processes it marked).
   */
  override async close(): Promise<void> {
    // The SDK runs these steps when it owns the child; they are repeated when a close was already under way.
    await super.close();
    const child = this.child;
    if (child && !this.exit) {
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (await this.exitedWithin(graceMs)) break;
        child.kill(signal);
      }
      await this.exitedWithin(graceMs);
    }
    if (!child) return;
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (!this.processes.signal(signal)) return;
      await this.goneWithin(graceMs);
    }
  }

  /** The SDK's `start()` with `detached: true`, so that the server leads a group its children join. */
  private spawnInOwnGroup(): Promise<void> {
    const { command, args, cwd } = this.config;
    const child = spawn(command, args ?? [], {
      env: serverEnvironment(this.config, this.processes.environment()),
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: true,
      cwd,
    });
    Reflect.set(this, '_process', child);
    const stderr = this.stderr;
    if (stderr instanceof PassThrough) child.stderr?.pipe(stderr);
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    child.on('close', () => {
      Reflect.set(this, '_process', undefined);
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
    });
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      this.close().catch(() => undefined);
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not an MCP message: reported, and reading goes on.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    await within(this.exited, ms);
    return this.exit !== null;
  }

  /** Waits until none of the server's processes is left, checking every 50 ms, at most `ms`. */
  private async goneWithin(ms: number): Promise<void> {
    for (let waited = 0; waited < ms && this.processes.signal(0); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise, timeout]);
  clearTimeout(timer);
}
