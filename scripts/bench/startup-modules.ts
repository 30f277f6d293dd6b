// Start-up of the built CLI: the modules `kasten info` and `kasten serve` load before they answer, and how
// long they take. BENCH_STARTUP_BASELINE=<another built checkout> runs its CLI too, in interleaved pairs,
// so the times compare within one run (this machine's speed drifts by up to 2× within minutes).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heavyAmong, moduleLogEnvironment, readModuleLog } from '../../test/support/loaded-modules.ts';

const thisCheckout = join(import.meta.dirname, '..', '..');

interface Build {
  name: string;
  root: string;
}

interface StartupFigures {
  name: string;
  infoModules: ReturnType<typeof readModuleLog>;
  serveModules: ReturnType<typeof readModuleLog>;
  infoMs: number[];
  serveMs: number[];
}

/** `kasten info` to its exit, in a fresh data directory; milliseconds. */
function runInfo(build: Build, env: NodeJS.ProcessEnv = {}): number {
  const dataDir = mkdtempSync(join(tmpdir(), 'kasten-bench-'));
  const started = performance.now();
  execFileSync(process.execPath, [join(build.root, 'bin', 'kasten.js'), 'info', '--data-dir', dataDir], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  const ms = performance.now() - started;
  rmSync(dataDir, { recursive: true, force: true });
  return ms;
}

/** `kasten serve` on the sample vault until it prints its address, then stopped; milliseconds to the address. */
async function runServe(build: Build, env: NodeJS.ProcessEnv = {}): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kasten-bench-'));
  const started = performance.now();
  const args = [join(build.root, 'bin', 'kasten.js'), 'serve', '--port', '0', '--data-dir', dataDir];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Open http:\/\/127\.0\.0\.1:\d+/.test(output)) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`kasten serve exited with ${code}:\n${output}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  return ms;
}

/** The modules one command loads, logged by a hook preloaded into the process. */
async function modulesOf(build: Build, run: (env: NodeJS.ProcessEnv) => unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'kasten-bench-modules-'));
  const log = join(dir, 'modules.log');
  await run(moduleLogEnvironment(log));
  const loaded = readModuleLog(log);
  rmSync(dir, { recursive: true, force: true });
  return loaded;
}

export async function measureStartup(runs: number, baselineRoot = process.env.BENCH_STARTUP_BASELINE) {
  const builds: Build[] = [{ name: 'this build', root: thisCheckout }];
  if (baselineRoot) builds.push({ name: 'baseline', root: baselineRoot });
  const figures: StartupFigures[] = [];
  for (const build of builds) {
    figures.push({
      name: build.name,
      infoModules: await modulesOf(build, (env) => runInfo(build, env)),
      serveModules: await modulesOf(build, (env) => runServe(build, env)),
      infoMs: [],
      serveMs: [],
    });
  }
  // Interleaved: a slow phase of the machine falls on both builds alike.
  for (let run = 0; run < runs; run++) {
    for (const [index, build] of builds.entries()) figures[index]!.infoMs.push(runInfo(build));
    for (const [index, build] of builds.entries()) figures[index]!.serveMs.push(await runServe(build));
  }
  return figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const cell = (value: string) => value.padStart(18);
const modules = (loaded: ReturnType<typeof readModuleLog>) =>
  `${loaded.files.length} (${(loaded.bytes / 1e6).toFixed(1)} MB)`;

/** Prints the start-up table: modules loaded, the heavy packages among them, median times and their ratio. */
export async function printStartup(runs: number): Promise<void> {
  const figures = await measureStartup(runs);
  const [current, baseline] = figures;
  console.log(
    `\nStart-up of the built CLI (sample vault for serve), modules loaded before the answer or the address, ${runs} interleaved runs\n`,
  );
  const ratio = (values: (f: StartupFigures) => number[]) =>
    baseline ? [(median(values(current!)) / median(values(baseline))).toFixed(2)] : [];
  const header = [...figures.map((f) => cell(f.name)), ...(baseline ? [cell('ratio')] : [])];
  console.log(`| ${'measure'.padEnd(44)} | ${header.join(' | ')} |`);
  console.log(`| ${'-'.repeat(44)} | ${header.map(() => `${'-'.repeat(17)}:`).join(' | ')} |`);
  const row = (name: string, values: string[]) => {
    const cells = header.map((_, index) => cell(values[index] ?? ''));
    console.log(`| ${name.padEnd(44)} | ${cells.join(' | ')} |`);
  };
  row(
    'kasten info: module files (size)',
    figures.map((f) => modules(f.infoModules)),
  );
  row(
    'kasten serve → address: module files (size)',
    figures.map((f) => modules(f.serveModules)),
  );
  row(
    'heavy packages loaded by serve',
    figures.map((f) => String(heavyAmong(f.serveModules).length)),
  );
  row('kasten info, median (ms)', [
    ...figures.map((f) => median(f.infoMs).toFixed(0)),
    ...ratio((f) => f.infoMs),
  ]);
  row('kasten serve → address, median (ms)', [
    ...figures.map((f) => median(f.serveMs).toFixed(0)),
    ...ratio((f) => f.serveMs),
  ]);
  for (const f of figures) {
    const heavy = heavyAmong(f.serveModules);
    if (heavy.length > 0) console.log(`\n${f.name} loads at start: ${heavy.join(', ')}.`);
  }
}
