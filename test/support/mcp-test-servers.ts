import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { McpHttpServerConfig, McpStdioServerConfig } from '../../src/shared/mcp-domain';

/** The test MCP server, run with the same Node as the tests. */
export const testServerScript = join(import.meta.dirname, 'mcp-test-server.mjs');

/** What every test server's settings hold: enabled, its tools always offered. */
function serverBasics(id: string) {
  return { id, name: id, enabled: true, include: 'always' as const, tools: {} };
}

/** A stdio server running the test server with `flags`. */
export function stdioTestServer(
  id: string,
  flags: string[] = [],
  more: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return {
    ...serverBasics(id),
    transport: 'stdio',
    command: process.execPath,
    args: [testServerScript, ...flags],
    env: {},
    ...more,
  };
}

/** An HTTP server's settings, its tools always offered, at `/mcp` on a port of 127.0.0.1. */
export function httpServerConfig(id: string, port: number): McpHttpServerConfig {
  return {
    ...serverBasics(id),
    transport: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
  };
}

export interface HttpTestServer {
  config: McpHttpServerConfig;
  stop(): Promise<void>;
}

/** Runs the test server over streamable HTTP on a free port of 127.0.0.1. */
export async function startHttpTestServer(id: string, env: NodeJS.ProcessEnv = {}): Promise<HttpTestServer> {
  const child = spawn(process.execPath, [testServerScript, '--http', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  const port = Number(/^listening (\d+)$/.exec(line)?.[1]);
  return {
    config: httpServerConfig(id, port),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  };
}

/** Whether a process with this pid exists and is not a zombie (a reaped child no longer exists). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // An orphan killed in a container whose first process does not reap stays a zombie: it runs no more.
  const stat = process.platform === 'linux' ? readProcStat(pid) : null;
  return stat === null || !/\) Z /.test(stat);
}

function readProcStat(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
}

/** The real `setTimeout`, taken before a test can fake it, so waiting never moves a fake clock. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Waits until `ready()` holds, checking every 20 ms of real time; fails after `ms` so a broken test cannot
 * hang. Works under `vi.useFakeTimers` without advancing the fake clock, unlike `vi.waitFor`.
 */
export async function waitFor(ready: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > until) throw new Error(`still waiting after ${ms} ms`);
    await new Promise((resolve) => realSetTimeout(resolve, 20));
  }
}
