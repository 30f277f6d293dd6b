import { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { McpStdioServerConfig } from '../../shared/mcp-domain';
import { ChunkedReadBuffer } from './mcp-line-buffer';
import { StderrTail } from './mcp-stderr-tail';

/** Largest single message read from a server; a bigger one closes the connection (the SDK's default is 10 MB). */
export const maxStdioMessageBytes = 32 * 1024 * 1024;

/** How long to wait for the child to go after each signal. */
const graceMs = 2_000;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The SDK's stdio transport, which spawns the server with a minimal environment plus the configured `env`
 * (never the app's own, which holds API keys), plus what messages and `dispose()` need: the stderr tail,
 * how the child exited, and a close that returns only once the child is gone.
 */
export class WatchedStdioTransport extends StdioClientTransport {
  readonly stderrTail = new StderrTail();
  /** Set from the moment the child exits; the SDK reports only that the connection closed. */
  exit: ProcessExit | null = null;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(config: McpStdioServerConfig) {
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
    if (sdkBuffer instanceof ReadBuffer) {
      Reflect.set(this, '_readBuffer', new ChunkedReadBuffer(maxStdioMessageBytes));
    }
    const stderr = this.stderr;
    if (stderr instanceof Readable) {
      stderr.setEncoding('utf8');
      stderr.on('data', (text: string) => this.stderrTail.push(text));
    }
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps the child private and drops its exit code; read it while the SDK still holds it.
    const child: unknown = Reflect.get(this, '_process');
    if (child instanceof ChildProcess) {
      this.child = child;
      this.exited = new Promise((resolve) => {
        child.once('exit', (code, signal) => {
          this.exit = { code, signal };
          resolve();
        });
      });
    }
  }

  /** Ends stdin, then SIGTERM, then SIGKILL, 2 s apart, and returns once the child is gone. */
  override async close(): Promise<void> {
    // The SDK runs these steps when it owns the child; they are repeated when a close was already under way.
    await super.close();
    const child = this.child;
    if (!child || this.exit) return;
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (await this.exitedWithin(graceMs)) return;
      child.kill(signal);
    }
    await this.exitedWithin(graceMs);
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    return this.exit !== null;
  }
}
