// Start-up of the built CLI: the modules `kasten info` and `kasten serve` load before they answer, how long
// they take, `kasten search` on an indexed vault of 10k notes (BENCH_STARTUP_NOTES; 0 leaves it out) and
// what `kasten serve` keeps resident on it. BENCH_STARTUP_BASELINE=<built checkout>[,<another>] runs their
// CLIs too, in interleaved pairs, so the times compare within one run (this machine's speed drifts by up
// to 2× within minutes).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heavyAmong, moduleLogEnvironment, readModuleLog } from '../../test/support/loaded-modules.ts';
import { writeSyntheticVault } from '../../test/support/synthetic-vault.ts';
import { measureServeMemory, type ServeMemory } from './serve-memory.ts';

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
  /** `kasten search` on the indexed vault, to its exit. */
  searchMs: number[];
  /** `kasten serve` on the vault, settled: after its cold index, and opening it indexed. */
  coldServe: ServeMemory | null;
  warmServe: ServeMemory | null;
}

/** The built checkout's commit, as its column's name. */
function commitOf(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return root;
  }
}

/** `kasten search` of a word pair on `vault`, indexed in `dataDir`, to its exit; milliseconds. */
function runSearch(build: Build, vault: string, dataDir: string): number {
  const started = performance.now();
  const args = [join(build.root, 'bin', 'kasten.js'), 'search', vault, 'slip box', '--data-dir', dataDir];
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  return performance.now() - started;
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

export async function measureStartup(
  runs: number,
  baselineRoots = (process.env.BENCH_STARTUP_BASELINE ?? '').split(',').filter(Boolean),
  notes = Number(process.env.BENCH_STARTUP_NOTES ?? 10_000),
) {
  const builds: Build[] = [
    { name: `this build (${commitOf(thisCheckout)})`, root: thisCheckout },
    ...baselineRoots.map((root) => ({ name: commitOf(root), root })),
  ];
  const figures: StartupFigures[] = [];
  for (const build of builds) {
    figures.push({
      name: build.name,
      infoModules: await modulesOf(build, (env) => runInfo(build, env)),
      serveModules: await modulesOf(build, (env) => runServe(build, env)),
      infoMs: [],
      serveMs: [],
      searchMs: [],
      coldServe: null,
      warmServe: null,
    });
  }
  // Interleaved: a slow phase of the machine falls on both builds alike.
  for (let run = 0; run < runs; run++) {
    for (const [index, build] of builds.entries()) figures[index]!.infoMs.push(runInfo(build));
    for (const [index, build] of builds.entries()) figures[index]!.serveMs.push(await runServe(build));
  }
  if (notes > 0) {
    const base = mkdtempSync(join(tmpdir(), 'kasten-bench-startup-'));
    try {
      const vault = join(base, 'vault');
      writeSyntheticVault(vault, { notes, seed: 42 });
      const dataDirs = builds.map((_, index) => join(base, `data-${index}`));
      // Each build indexes the vault cold in `kasten serve`, then opens it indexed.
      for (const [index, build] of builds.entries()) {
        figures[index]!.coldServe = await measureServeMemory(build.root, vault, dataDirs[index]!);
      }
      for (const [index, build] of builds.entries()) {
        figures[index]!.warmServe = await measureServeMemory(build.root, vault, dataDirs[index]!);
      }
      for (let run = 0; run < runs; run++) {
        for (const [index, build] of builds.entries())
          figures[index]!.searchMs.push(runSearch(build, vault, dataDirs[index]!));
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
  return figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const cell = (value: string) => value.padStart(18);
const modules = (loaded: ReturnType<typeof readModuleLog>) =>
  `${loaded.files.length} (${(loaded.bytes / 1e6).toFixed(1)} MB)`;

/** Prints the start-up table: modules loaded, the heavy packages among them, median times and their ratio. */
export async function printStartup(runs: number): Promise<StartupFigures[]> {
  const figures = await measureStartup(runs);
  const [current, ...baselines] = figures;
  console.log(
    `\nStart-up of the built CLI (sample vault for serve; a synthetic vault for search and memory), modules loaded before the answer or the address, ${runs} interleaved runs; ratios are this build's median ÷ the other's\n`,
  );
  const header = [...figures.map((f) => cell(f.name)), ...baselines.map((b) => cell(`÷ ${b.name}`))];
  console.log(`| ${'measure'.padEnd(44)} | ${header.join(' | ')} |`);
  console.log(`| ${'-'.repeat(44)} | ${header.map(() => `${'-'.repeat(17)}:`).join(' | ')} |`);
  const row = (name: string, values: string[]) => {
    const cells = header.map((_, index) => cell(values[index] ?? ''));
    console.log(`| ${name.padEnd(44)} | ${cells.join(' | ')} |`);
  };
  const timeRow = (name: string, values: (f: StartupFigures) => number[]) =>
    row(name, [
      ...figures.map((f) => (values(f).length ? median(values(f)).toFixed(0) : 'n/a')),
      ...baselines.map((b) => (median(values(current!)) / median(values(b))).toFixed(2)),
    ]);
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
  timeRow('kasten info, median (ms)', (f) => f.infoMs);
  timeRow('kasten serve → address, median (ms)', (f) => f.serveMs);
  timeRow('kasten search, indexed 10k vault, median (ms)', (f) => f.searchMs);
  const memoryRow = (name: string, value: (f: StartupFigures) => number | undefined) =>
    row(name, [
      ...figures.map((f) => value(f)?.toFixed(0) ?? 'n/a'),
      ...baselines.map((b) => ((value(current!) ?? NaN) / (value(b) ?? NaN)).toFixed(2)),
    ]);
  memoryRow('serve after its cold index: peak RSS (MiB)', (f) => f.coldServe?.peak);
  memoryRow('  RSS settled, before a full GC (MiB)', (f) => f.coldServe?.rssBefore);
  memoryRow('  RSS settled, after two full GCs (MiB)', (f) => f.coldServe?.rss);
  memoryRow('  of which the main thread’s heap (MiB)', (f) => f.coldServe?.heapUsed);
  memoryRow('serve RSS opening it indexed, settled (MiB)', (f) => f.warmServe?.rss);
  for (const f of figures) {
    const heavy = heavyAmong(f.serveModules);
    if (heavy.length > 0) console.log(`\n${f.name} loads at start: ${heavy.join(', ')}.`);
  }
  return figures;
}
