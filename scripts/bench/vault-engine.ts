// The vault engine measured through the browser host, as the app runs it: cold index, warm open,
// edit→index latency, request round trips during a cold index, search, peak memory.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { startKastenServer, type RunningServer } from '../../test/support/kasten-server.ts';
import { writeSyntheticVault } from '../../test/support/synthetic-vault.ts';

export interface EngineFigures {
  notes: number;
  megabytes: number;
  /** One figure per run (see combineRuns). */
  coldIndexMs: number[];
  warmOpenMs: number[];
  editLatencyMs: number[];
  editWallMs: number[];
  roundTripDuringIndexMs: number[];
  searchMs: number[];
  /** Questions: no note holds every word, so the some-words ranking runs (OR over common words). */
  questionSearchMs: number[];
  peakRssMb: number;
}

const queries = ['note', 'zettel', 'link', 'idea', 'summary', 'method', 'quer', 'tag', 'heading', 'block'];
// Every word but the stop words is one that most synthetic notes hold: the some-words ranking's worst case.
const questions = [
  'how does the slip box method work?',
  'what is a good habit for reading papers?',
  'where do I keep my research outline and draft?',
  'why should every claim have evidence?',
  'which book chapter has the quote?',
];

async function call(server: RunningServer, channel: string, input?: unknown): Promise<unknown> {
  const token = new URL(server.url).searchParams.get('token');
  const response = await fetch(`${server.origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: input === undefined ? '' : JSON.stringify(input),
  });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return envelope.value;
}

type Status = { progress: { state: string }; report: { ms: number; notes: number } | null };

/** Polls index:status until a report exists; times app:info round trips meanwhile. */
async function untilIndexed(server: RunningServer, roundTrips: number[] = []) {
  for (;;) {
    const started = performance.now();
    await call(server, 'app:info');
    roundTrips.push(performance.now() - started);
    const status = (await call(server, 'index:status')) as Status;
    if (status.report && status.progress.state === 'idle') return status.report;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

export async function measureEngine(notes: number): Promise<EngineFigures> {
  const base = mkdtempSync(join(tmpdir(), 'kasten-bench-'));
  const vault = join(base, 'vault');
  const dataDir = join(base, 'data');
  try {
    const written = writeSyntheticVault(vault, { notes, seed: 42 });
    const roundTrips: number[] = [];
    const cold = await startKastenServer({ vault, dataDir });
    const coldReport = await untilIndexed(cold, roundTrips);

    const searchMs: number[] = [];
    const questionSearchMs: number[] = [];
    for (let round = 0; round < 20; round++) {
      for (const query of queries) {
        const started = performance.now();
        await call(cold, 'search:notes', { query, limit: 20 });
        searchMs.push(performance.now() - started);
      }
      for (const query of questions) {
        const started = performance.now();
        await call(cold, 'search:notes', { query, limit: 20 });
        questionSearchMs.push(performance.now() - started);
      }
    }

    const events = new WebSocket(
      `${cold.origin.replace('http', 'ws')}/events?token=${new URL(cold.url).searchParams.get('token')}`,
    );
    await new Promise((resolve, reject) => events.once('open', resolve).once('error', reject));
    const tree = (await call(cold, 'vault:tree')) as { entries: unknown };
    const paths =
      JSON.stringify(tree.entries)
        .match(/"path":"[^"]+\.md"/g)
        ?.map((match) => match.slice(8, -1)) ?? [];
    const editLatencyMs: number[] = [];
    const editWallMs: number[] = [];
    for (let edit = 0; edit < 40; edit++) {
      const path = paths[(edit * 7919) % paths.length]!;
      const changed = new Promise<number>((resolve) => {
        const onMessage = (data: Buffer) => {
          const message = JSON.parse(data.toString()) as {
            channel: string;
            payload: { paths: string[]; latencyMs: number };
          };
          if (message.channel === 'index:changed' && message.payload.paths.includes(path)) {
            events.off('message', onMessage);
            resolve(message.payload.latencyMs);
          }
        };
        events.on('message', onMessage);
      });
      const started = performance.now();
      appendFileSync(join(vault, ...path.split('/')), `\nEdit ${edit} mentions [[Missing ${edit}]].\n`);
      editLatencyMs.push(await changed);
      editWallMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    events.close();
    const peak = peakRssMb(cold.pid);
    await cold.stop({ keepData: true });

    const warm = await startKastenServer({ vault, dataDir });
    const warmReport = await untilIndexed(warm);
    await warm.stop({ keepData: true });

    return {
      notes: coldReport.notes,
      megabytes: written.bytes / 1048576,
      coldIndexMs: [coldReport.ms],
      warmOpenMs: [warmReport.ms],
      editLatencyMs,
      editWallMs,
      roundTripDuringIndexMs: roundTrips,
      searchMs,
      questionSearchMs,
      peakRssMb: peak,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * Several runs as one: cold and warm times per run, the samples of edits, searches and round trips
 * pooled, and the highest peak memory. On a shared machine one run can be 40 % off the next.
 */
export function combineRuns(runs: EngineFigures[]): EngineFigures {
  const all = <T>(pick: (run: EngineFigures) => T[]) => runs.flatMap(pick);
  return {
    notes: runs[0]!.notes,
    megabytes: runs[0]!.megabytes,
    coldIndexMs: all((run) => run.coldIndexMs),
    warmOpenMs: all((run) => run.warmOpenMs),
    editLatencyMs: all((run) => run.editLatencyMs),
    editWallMs: all((run) => run.editWallMs),
    roundTripDuringIndexMs: all((run) => run.roundTripDuringIndexMs),
    searchMs: all((run) => run.searchMs),
    questionSearchMs: all((run) => run.questionSearchMs),
    peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)),
  };
}
