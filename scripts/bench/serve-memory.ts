// What `kasten serve` keeps resident once it has opened a vault and has nothing to do: the process's own
// figures (process.memoryUsage, read through the inspector after two full collections), not an estimate
// from outside. The server runs with --inspect on a free port of 127.0.0.1, for this measurement only.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';

export interface ServeMemory {
  /** The resident set before the collections, as the kernel counts it (VmRSS), and its peak: MiB. */
  rssBefore: number;
  peak: number;
  /** Resident set, heap used, off-heap (Buffers, ArrayBuffers and native objects V8 knows of): MiB. */
  rss: number;
  heapUsed: number;
  external: number;
}

const mib = (bytes: number) => bytes / 1048576;

/** A figure of /proc/PID/status (VmRSS, VmHWM), in MiB. */
function statusMib(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** One call over the inspector's WebSocket; resolves with its result. */
function inspect(socket: WebSocket, id: number, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown };
      if (message.id !== id) return;
      socket.off('message', onMessage);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method, params }));
  });
}

async function post(origin: string, token: string, channel: string): Promise<unknown> {
  const response = await fetch(`${origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: '',
  });
  return ((await response.json()) as { value?: unknown }).value;
}

/**
 * `kasten serve` of the built checkout at `root` on `vault` (indexed before in `dataDir`, or indexed now),
 * settled: its index pass done, `settleMs` of quiet, then two full collections.
 */
export async function measureServeMemory(
  root: string,
  vault: string,
  dataDir: string,
  settleMs = 5000,
): Promise<ServeMemory> {
  const args = ['--inspect=127.0.0.1:0', join(root, 'bin', 'kasten.js'), 'serve', '--port', '0'];
  const child: ChildProcess = spawn(
    process.execPath,
    [...args, '--vault', vault, '--data-dir', dataDir, '--no-summaries'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  try {
    const found = await new Promise<{ url: URL; inspector: string }>((resolve, reject) => {
      const check = () => {
        const url = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)?.[1];
        const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(err)?.[1];
        if (url && inspector) resolve({ url: new URL(url), inspector });
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      child.once('exit', (code) => reject(new Error(`kasten serve exited with ${code}:\n${out}${err}`)));
    });
    const token = found.url.searchParams.get('token')!;
    for (;;) {
      // A connection the busy server dropped is asked again.
      const status = (await post(found.url.origin, token, 'index:status').catch(() => null)) as {
        progress: { state: string };
        report: unknown;
      } | null;
      if (status?.report && status.progress.state === 'idle') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const rssBefore = statusMib(child.pid!, 'VmRSS');
    const peak = statusMib(child.pid!, 'VmHWM');
    const socket = new WebSocket(found.inspector);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      await inspect(socket, 1, 'HeapProfiler.collectGarbage');
      await inspect(socket, 2, 'HeapProfiler.collectGarbage');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const result = (await inspect(socket, 3, 'Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as { result: { value: string } };
      const usage = JSON.parse(result.result.value) as NodeJS.MemoryUsage;
      return {
        rssBefore,
        peak,
        rss: mib(usage.rss),
        heapUsed: mib(usage.heapUsed),
        external: mib(usage.external),
      };
    } finally {
      socket.close();
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
