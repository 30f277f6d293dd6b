import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningServer {
  url: string;
  origin: string;
  dataDir: string;
  /** Process id of the host, e.g. to read its peak memory. */
  pid: number;
  output: () => string;
  /** Stops the host; the data directory it created goes too unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

const repoRoot = join(import.meta.dirname, '..', '..');

/** Starts the built `kasten serve` as a user would, and waits for the address it prints. */
export async function startKastenServer(
  options: {
    vault?: string;
    dataDir?: string;
    args?: string[];
    env?: NodeJS.ProcessEnv;
    /** Another built checkout to run (the benchmarks compare two); this one by default. */
    root?: string;
  } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kasten-e2e-'));
  const args = ['bin/kasten.js', 'serve', '--port', '0', '--data-dir', dataDir];
  if (options.vault) args.push('--vault', options.vault);
  args.push(...(options.args ?? []));
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.root ?? repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kasten serve printed no URL:\n${log}`)), 20_000);
    const check = () => {
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`kasten serve exited with ${code}:\n${log}`)));
  });

  return {
    url,
    origin: new URL(url).origin,
    dataDir,
    pid: child.pid ?? 0,
    output: () => log,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir && !keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The flags that point a host at a scripted model server (`url` without `/v1`), with no background summaries. */
export function scriptedModelArgs(url: string): string[] {
  return ['--base-url', `${url}/v1`, '--model', 'scripted-model', '--no-summaries'];
}
