// A cold index against its floor: `kasten serve` of a built checkout indexing a synthetic vault into an
// empty data folder, and, in the same run, the floor (index-floor.ts: reading every note and one FTS5
// insert transaction). Runs alternate (floor, this commit, an earlier checkout if given, …), so that a
// shared machine's slow minutes weigh on all of them alike; the ratio is taken within each round.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexProfile } from '../../src/shared/index-domain.ts';
import { writeSyntheticVault } from '../../test/support/synthetic-vault.ts';

export interface ColdRun {
  ms: number;
  /** The host's own peak resident memory (VmHWM) once the index is built. */
  peakRssMb: number;
  profile: IndexProfile | null;
}

export interface ColdIndexFigures {
  notes: number;
  megabytes: number;
  floorMs: number[];
  /** Runs of each checkout, by name, a run per round. */
  runs: Map<string, ColdRun[]>;
}

const repoRoot = join(import.meta.dirname, '..', '..');

/** Runs `rounds` rounds over a vault of `notes` notes; `others` are built checkouts to compare with. */
export async function measureColdIndex(
  notes: number,
  rounds: number,
  others: { name: string; dir: string }[] = [],
): Promise<ColdIndexFigures> {
  const base = mkdtempSync(join(tmpdir(), 'kasten-cold-'));
  const vault = join(base, 'vault');
  try {
    const written = writeSyntheticVault(vault, { notes, seed: 42 });
    const checkouts = [{ name: 'this commit', dir: repoRoot }, ...others];
    const figures: ColdIndexFigures = {
      notes: written.notes,
      megabytes: written.bytes / 1048576,
      floorMs: [],
      runs: new Map(checkouts.map(({ name }) => [name, []])),
    };
    for (let round = 0; round < rounds; round++) {
      figures.floorMs.push(floorMs(vault, join(base, `floor-${round}.sqlite`)));
      for (const { name, dir } of checkouts) {
        figures.runs.get(name)!.push(await coldIndex(dir, vault, join(base, `data-${round}-${name}`)));
      }
    }
    return figures;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function floorMs(vault: string, file: string): number {
  const floor = spawnSync(
    process.execPath,
    [
      '--experimental-strip-types',
      '--disable-warning=ExperimentalWarning',
      'scripts/bench/index-floor.ts',
      vault,
      file,
    ],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (floor.status !== 0) throw new Error(`The floor failed: ${floor.stderr}`);
  rmSync(file, { force: true });
  return (JSON.parse(floor.stdout) as { ms: number }).ms;
}

type Status = { progress: { state: string }; report: { ms: number; profile?: IndexProfile } | null };

/** `kasten serve` of the checkout at `dir` on the vault, until its first index pass is reported. */
async function coldIndex(dir: string, vault: string, dataDir: string): Promise<ColdRun> {
  const child = spawn(
    process.execPath,
    [join(dir, 'bin', 'kasten.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--vault', vault],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const url = await new Promise<URL>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(log);
        if (match?.[1]) resolve(new URL(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`kasten serve exited with ${code}:\n${log}`)));
    });
    for (;;) {
      // A kept-alive connection the host closed meanwhile fails once (seen on a loaded machine): ask again.
      const status = (await call(url, 'index:status').catch(() => {
        if (child.exitCode !== null) throw new Error(`kasten serve exited:\n${log}`);
        return { progress: { state: 'indexing' }, report: null };
      })) as Status;
      if (status.report && status.progress.state === 'idle') {
        return {
          ms: status.report.ms,
          peakRssMb: peakRssMb(child.pid!),
          profile: status.report.profile ?? null,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function call(url: URL, channel: string): Promise<unknown> {
  const response = await fetch(`${url.origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${url.searchParams.get('token')}`, 'content-type': 'application/json' },
    body: '',
  });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return envelope.value;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Prints the figures as a table: medians, ratios to the floor (median of each round's), peak memory. */
export function printColdIndex(figures: ColdIndexFigures): void {
  const names = [...figures.runs.keys()];
  const rounds = figures.floorMs.length;
  const cell = (value: string) => value.padStart(14);
  console.log(
    `\nCold index against its floor, synthetic vault (seed 42) of ${figures.notes} notes (${figures.megabytes.toFixed(1)} MB), ${rounds} interleaved rounds, through \`kasten serve\`; the floor reads every note and inserts them into an FTS5 table in one transaction\n`,
  );
  console.log(`| ${'measure'.padEnd(44)} | ${cell('floor')} | ${names.map(cell).join(' | ')} |`);
  console.log(
    `| ${'-'.repeat(44)} | ${[cell(''), ...names.map(cell)].map(() => '-------------:').join(' | ')} |`,
  );
  const row = (name: string, floor: string, value: (runs: ColdRun[]) => string) =>
    console.log(
      `| ${name.padEnd(44)} | ${cell(floor)} | ${names.map((n) => cell(value(figures.runs.get(n)!))).join(' | ')} |`,
    );
  row('median (s)', (median(figures.floorMs) / 1000).toFixed(2), (runs) =>
    (median(runs.map((run) => run.ms)) / 1000).toFixed(2),
  );
  row('× the floor (median of the rounds)', '1.00', (runs) =>
    median(runs.map((run, round) => run.ms / figures.floorMs[round]!)).toFixed(2),
  );
  row('fastest – slowest (s)', spread(figures.floorMs), (runs) => spread(runs.map((run) => run.ms)));
  row('peak RSS of the host, highest (MiB)', '', (runs) =>
    Math.max(...runs.map((run) => run.peakRssMb)).toFixed(0),
  );
  const ours = figures.runs.get(names[0]!)!;
  const middle = [...ours].sort((a, b) => a.ms - b.ms)[Math.floor(ours.length / 2)];
  if (middle?.profile) {
    const phases = Object.entries(middle.profile).map(([phase, ms]) => `${phase} ${ms}`);
    console.log(`\nWhere the median run of this commit spent its time (ms): ${phases.join(', ')}.`);
  }
}

function spread(values: number[]): string {
  return `${(Math.min(...values) / 1000).toFixed(1)}–${(Math.max(...values) / 1000).toFixed(1)}`;
}
