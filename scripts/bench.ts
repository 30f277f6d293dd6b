// `npm run bench`: measures what a user waits for and prints tables. Bars from the issues are shown
// next to the figures; nothing here fails a build — record the figures in docs/PERFORMANCE.md.
import { cpus, totalmem } from 'node:os';
import { measureChatTurns } from './bench/chat-turn.ts';
import { measureColdStart } from './bench/cold-start.ts';
import { measureContextAssembly } from './bench/context-assembly.ts';
import { measureContextItems } from './bench/context-items.ts';
import { measureContextMeter } from './bench/context-meter.ts';
import { measureEditDiff } from './bench/edit-diff.ts';
import { measureEmbeddingBuild } from './bench/embedding-build.ts';
import { measureEmbeddingSearch } from './bench/embeddings.ts';
import { measureRetrieval, type RetrievalFigures } from './bench/retrieval.ts';
import { machineCheckMs } from './bench/machine-check.ts';
import { measureColdIndex, printColdIndex } from './bench/cold-index.ts';
import { combineRuns, measureEngine } from './bench/vault-engine.ts';

const runs = Number(process.env.BENCH_RUNS ?? 5);
// Whole vault-engine runs per size: cold and warm figures are the median over them.
const engineRuns = Number(process.env.BENCH_ENGINE_RUNS ?? 3);
const sizes = (process.env.BENCH_NOTES ?? '1000,10000').split(',').map(Number);
// Cold indexes against their floor (see bench/cold-index.ts): sizes, and rounds at 10k notes or fewer
// (larger vaults get two); BENCH_BASE names a built checkout to run in the same rounds.
const coldSizes = (process.env.BENCH_COLD_NOTES ?? '10000,50000').split(',').map(Number);
const coldRounds = Number(process.env.BENCH_COLD_ROUNDS ?? 5);
const coldBase = process.env.BENCH_BASE ? [{ name: 'BENCH_BASE', dir: process.env.BENCH_BASE }] : [];
// Sections to run, e.g. BENCH_ONLY=chat; all of them by default.
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const wanted = (section: 'start' | 'engine' | 'chat' | 'context' | 'edits' | 'retrieval' | 'vectors') =>
  !only || only.includes(section);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const cell = (value: string, width = 10) => value.padStart(width);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : 'n/a');

console.log(
  `\nKasten benchmark — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`,
);
const checkBefore = machineCheckMs();

if (wanted('start')) {
  // BENCH_STARTUP_BASELINE: other built checkouts, comma-separated, started in turn with this one.
  const baselines = (process.env.BENCH_STARTUP_BASELINE ?? '').split(',').filter(Boolean);
  const starts = await measureColdStart(runs, [undefined, ...baselines]);
  const names = ['this build', ...baselines.map((root) => root.split('/').at(-1) ?? root)];
  console.log(
    `Browser host cold start, sample vault (${starts[0]!.noteCount} notes), ${runs} interleaved runs, ms: p50 / p95\n`,
  );
  console.log(`| ${'measure'.padEnd(44)} | ${names.map((name) => cell(name, 16)).join(' | ')} |`);
  console.log(`| ${'-'.repeat(44)} | ${names.map(() => `${'-'.repeat(15)}:`).join(' | ')} |`);
  for (const [name, values] of [
    ['launch → URL printed', (f: (typeof starts)[number]) => f.serverReady],
    ['launch → first note list shown', (f: (typeof starts)[number]) => f.firstList],
  ] as const) {
    const cells = starts.map((f) => `${ms(percentile(values(f), 50))} / ${ms(percentile(values(f), 95))}`);
    console.log(`| ${name.padEnd(44)} | ${cells.map((value) => cell(value, 16)).join(' | ')} |`);
  }
}

if (wanted('start')) await (await import('./bench/startup-modules.ts')).printStartup(runs);

if (wanted('engine')) {
  const figures: Awaited<ReturnType<typeof measureEngine>>[] = [];
  for (const notes of sizes) {
    const each: Awaited<ReturnType<typeof measureEngine>>[] = [];
    for (let run = 0; run < engineRuns; run++) each.push(await measureEngine(notes));
    figures.push(combineRuns(each));
  }
  const seconds = (values: number[]) => (percentile(values, 50) / 1000).toFixed(2);

  const rows: [string, (f: (typeof figures)[number]) => string, string][] = [
    ['vault size (MB)', (f) => f.megabytes.toFixed(1), ''],
    ['cold index, median (s)', (f) => seconds(f.coldIndexMs), '≤ 5 s'],
    [
      'cold index, fastest – slowest run (s)',
      (f) =>
        `${(Math.min(...f.coldIndexMs) / 1000).toFixed(1)}–${(Math.max(...f.coldIndexMs) / 1000).toFixed(1)}`,
      '',
    ],
    ['cold index (MB/s)', (f) => (f.megabytes / (percentile(f.coldIndexMs, 50) / 1000)).toFixed(1), ''],
    ['warm open, index pass, median (ms)', (f) => ms(percentile(f.warmOpenMs, 50)), '≤ 500 ms'],
    ['edit → index after watcher event p50 (ms)', (f) => ms(percentile(f.editLatencyMs, 50)), ''],
    ['edit → index after watcher event p95 (ms)', (f) => ms(percentile(f.editLatencyMs, 95)), '≤ 100 ms'],
    ['edit → index from the write p95 (ms)', (f) => ms(percentile(f.editWallMs, 95)), ''],
    ['round trip during cold index p95 (ms)', (f) => ms(percentile(f.roundTripDuringIndexMs, 95)), '≤ 50 ms'],
    ['search p50 (ms, over HTTP)', (f) => ms(percentile(f.searchMs, 50)), ''],
    ['search p95 (ms, over HTTP)', (f) => ms(percentile(f.searchMs, 95)), '≤ 15 ms'],
    ['question search p50 (ms, some-words ranking)', (f) => ms(percentile(f.questionSearchMs, 50)), ''],
    ['question search p95 (ms, some-words ranking)', (f) => ms(percentile(f.questionSearchMs, 95)), ''],
    ['peak RSS of the host (MB)', (f) => ms(f.peakRssMb), '≤ 300 MB'],
  ];
  console.log(
    `\nVault engine, synthetic vaults (seed 42), through the browser host, ${engineRuns} runs each (samples pooled, highest RSS)\n`,
  );
  console.log(
    `| ${'measure'.padEnd(44)} | ${figures.map((f) => cell(`${f.notes} notes`)).join(' | ')} | ${cell('bar (10k)')} |`,
  );
  console.log(`| ${'-'.repeat(44)} | ${figures.map(() => '---------:').join(' | ')} | ---------: |`);
  for (const [name, value, bar] of rows) {
    console.log(`| ${name.padEnd(44)} | ${figures.map((f) => cell(value(f))).join(' | ')} | ${cell(bar)} |`);
  }
}

// Part of the engine section; BENCH_ONLY=cold runs it alone.
if (wanted('engine') || only?.includes('cold')) {
  for (const notes of coldSizes) {
    const rounds = notes <= 10_000 ? coldRounds : Math.min(coldRounds, 2);
    printColdIndex(await measureColdIndex(notes, rounds, coldBase));
  }
  console.log('\nBars: 10k notes ≤ 3× the floor; 50k notes ≤ 10 s and ≤ 400 MiB peak.');
}

if (wanted('chat')) {
  const chat = await measureChatTurns();
  const rows: [string, (f: (typeof chat.lengths)[number]) => string, string][] = [
    ['overhead per turn p50 (send → done − model)', (f) => ms(percentile(f.overheadMs, 50)), ''],
    ['overhead per turn p95 (send → done − model)', (f) => ms(percentile(f.overheadMs, 95)), '≤ 15 ms'],
    ['overhead per turn max', (f) => ms(Math.max(...f.overheadMs)), ''],
    ['send → message committed p50', (f) => ms(percentile(f.committedMs, 50)), ''],
    ['send → message committed p95', (f) => ms(percentile(f.committedMs, 95)), ''],
    ['send → message committed max', (f) => ms(Math.max(...f.committedMs)), ''],
    ['inside the model stub p95 (subtracted)', (f) => percentile(f.modelMs, 95).toFixed(2), ''],
  ];
  console.log(
    `\nChat turn overhead, sample vault (${chat.notes} notes), instant in-process model, ${chat.turns} turns, ms\n`,
  );
  console.log(
    `| ${'measure'.padEnd(44)} | ${chat.lengths.map((f) => cell(`${f.messages} msgs`)).join(' | ')} | ${cell('bar (500)')} |`,
  );
  console.log(`| ${'-'.repeat(44)} | ${chat.lengths.map(() => '---------:').join(' | ')} | ---------: |`);
  for (const [name, value, bar] of rows) {
    console.log(
      `| ${name.padEnd(44)} | ${chat.lengths.map((f) => cell(value(f))).join(' | ')} | ${cell(bar)} |`,
    );
  }
}

if (wanted('context')) {
  const context = await measureContextAssembly();
  console.log('\nContext engine, in process, ms: counting, and assembling a request per turn (hybrid)\n');
  console.log(`| ${'measure'.padEnd(52)} | ${cell('p50')} | ${cell('p95')} | ${cell('bar')} |`);
  console.log(`| ${'-'.repeat(52)} | ---------: | ---------: | ---------: |`);
  const row = (name: string, values: number[], bar: string) =>
    console.log(
      `| ${name.padEnd(52)} | ${cell(percentile(values, 50).toFixed(2))} | ${cell(percentile(values, 95).toFixed(2))} | ${cell(bar)} |`,
    );
  row('count a 2 KB message, first time', context.countMs, '≤ 0.5 ms');
  for (const { messages, window, turnMs } of context.lengths) {
    const bar = messages >= 5000 ? '≤ 30 ms' : messages >= 500 ? '≤ 15 ms' : '';
    row(`assemble + count, ${messages} messages, ${window / 1024}k window`, turnMs, bar);
  }
  const items = await measureContextItems();
  row(`context items, ${items.rules} rules, first answer (read all)`, [items.firstMs], '');
  row(`context items, ${items.rules} rules, later answers`, items.answerMs, '');
  const { meter, streams } = await measureContextMeter();
  for (const { messages, window, keystrokeMs } of meter) {
    row(`meter after one keystroke, ${messages} messages, ${window / 1024}k`, keystrokeMs, '');
  }
  for (const { messages, window, newMessageMs } of meter) {
    row(`meter after a new message, ${messages} messages, ${window / 1024}k`, newMessageMs, '');
  }
  console.log(
    '\nBytes of `chat:message` and `chat:delta` sent for a streamed 2,000-word answer: before, the whole message with its requests at every announcement (40 ms apart); after, as sent now\n',
  );
  console.log(
    `| ${'chat'.padEnd(28)} | ${['announcements', 'before (KB)', 'after (KB)', 'after/before'].map((name) => cell(name, 13)).join(' | ')} |`,
  );
  console.log(
    `| ${'-'.repeat(28)} | ${Array(4)
      .fill('-'.repeat(12) + ':')
      .join(' | ')} |`,
  );
  for (const { messages, announcements, sent, whole } of streams) {
    const values = [
      String(announcements),
      (whole / 1024).toFixed(0),
      (sent / 1024).toFixed(0),
      `${((100 * sent) / whole).toFixed(1)} %`,
    ];
    const chat = messages === 0 ? 'a new chat' : `after ${messages} messages`;
    console.log(`| ${chat.padEnd(28)} | ${values.map((value) => cell(value, 13)).join(' | ')} |`);
  }
}

if (wanted('edits')) {
  const edits = await measureEditDiff();
  console.log(
    `\nAn edit_note change prepared on a ${(edits.noteBytes / 1024).toFixed(0)} KB note (find, splice, word diff for the card), in process, ms\n`,
  );
  console.log(`| ${'measure'.padEnd(52)} | ${cell('p50')} | ${cell('max')} |`);
  console.log(`| ${'-'.repeat(52)} | ---------: | ---------: |`);
  for (const { name, ms: values } of edits.cases) {
    console.log(
      `| ${name.padEnd(52)} | ${cell(ms(percentile(values, 50)))} | ${cell(ms(Math.max(...values)))} |`,
    );
  }
}

if (wanted('retrieval')) {
  const build = await measureEmbeddingBuild();
  const vaults: RetrievalFigures[] = [];
  // BENCH_RETRIEVAL_VAULTS=prose (or words) measures one of the two.
  for (const kind of (process.env.BENCH_RETRIEVAL_VAULTS ?? 'prose,words').split(',')) {
    vaults.push(await measureRetrieval(kind.trim() === 'words' ? 'words' : 'prose'));
  }
  const [first] = vaults;
  console.log(
    `\nRetrieval, synthetic vaults (seed 42) of ${first!.notes} notes, ${first!.dimensions}-dimension random vectors from an instant stub model, in process through the contract's handlers, ${first!.hybridMs.length} searches and ${first!.relatedByWordsMs.length} related-note lookups each, ms. Prose: sentences of the eval vault; words: the 45-word vocabulary, nearly every word in nearly every note (the worst case)\n`,
  );
  const columns = vaults.flatMap((v) => [`${v.vault} p50`, `${v.vault} p95`]);
  console.log(
    `| ${'measure'.padEnd(44)} | ${columns.map((name) => cell(name)).join(' | ')} | ${cell('bar (p95)')} |`,
  );
  console.log(`| ${'-'.repeat(44)} | ${columns.map(() => '---------:').join(' | ')} | ---------: |`);
  const row = (name: string, values: (f: RetrievalFigures) => number[], bar: string) =>
    console.log(
      `| ${name.padEnd(44)} | ${vaults.map((f) => `${cell(ms(percentile(values(f), 50)))} | ${cell(ms(percentile(values(f), 95)))}`).join(' | ')} | ${cell(bar)} |`,
    );
  row('search, lexical (all words, then some)', (f) => f.lexicalMs, '');
  row('search, semantic', (f) => f.semanticMs, '');
  row('search, hybrid (both, fused)', (f) => f.hybridMs, '≤ 20 ms');
  row('related notes, by words (embeddings off)', (f) => f.relatedByWordsMs, '≤ 50 ms');
  row('related notes, by meaning', (f) => f.relatedByMeaningMs, '≤ 50 ms');
  // BENCH_STARTUP_BASELINE: hybrid search on the prose vault by each other checkout's services too, in
  // alternating runs (BENCH_RETRIEVAL_PAIRS of them), each run a vault built afresh.
  const baselines = (process.env.BENCH_STARTUP_BASELINE ?? '').split(',').filter(Boolean);
  if (baselines.length > 0) {
    const roots = [undefined, ...baselines];
    const runs = roots.map(() => [] as RetrievalFigures[]);
    for (let pair = 0; pair < Number(process.env.BENCH_RETRIEVAL_PAIRS ?? 3); pair++) {
      for (const [index, root] of roots.entries()) {
        // A checkout whose services take other options than these fails here: its column says n/a.
        const figures = await measureRetrieval('prose', undefined, undefined, undefined, root).catch(
          (error: Error) => (console.warn(`${root}: ${error.message}`), null),
        );
        if (figures) runs[index]!.push(figures);
      }
    }
    const names = roots.map((root) => (root ? (root.split('/').at(-1) ?? root) : 'this build'));
    console.log(
      '\nHybrid search on the prose vault, each checkout in alternating runs (each a vault built afresh): p50 / p95 of each run, ms\n',
    );
    console.log(`| ${'checkout'.padEnd(20)} | ${'runs: p50 / p95'.padEnd(60)} |`);
    console.log(`| ${'-'.repeat(20)} | ${'-'.repeat(60)} |`);
    for (const [index, name] of names.entries()) {
      const figures = runs[index]!.map(
        (f) => `${ms(percentile(f.hybridMs, 50))} / ${ms(percentile(f.hybridMs, 95))}`,
      );
      console.log(`| ${name.padEnd(20)} | ${(figures.join(', ') || 'n/a').padEnd(60)} |`);
    }
  }
  for (const f of vaults) {
    console.log(
      `\nOnce, ${f.vault}: cutting the ${f.notes} notes into ${f.passages} passages and storing their vectors ${(f.buildMs / 1000).toFixed(1)} s; the first semantic search (loading the vectors) ${ms(f.firstSearchMs)} ms, resident memory +${f.vectorMegabytes.toFixed(0)} MB.`,
    );
  }
  const seconds = build.ms / 1000;
  console.log(
    `\nEmbedding index build, synthetic vault (seed 43), ${build.notes} notes (${build.megabytes.toFixed(1)} MB), against the scripted model server in a process of its own (bag-of-words vectors of ${build.dimensions} dimensions, batches of 32)\n`,
  );
  console.log(`| ${'measure'.padEnd(52)} | ${cell('value')} |`);
  console.log(`| ${'-'.repeat(52)} | ---------: |`);
  const rows: [string, string][] = [
    ['passages embedded', String(build.passages)],
    ['run (s)', seconds.toFixed(1)],
    ['passages/s', (build.passages / seconds).toFixed(0)],
    ["Kasten's CPU time (s, every thread of this process)", (build.cpuMs / 1000).toFixed(1)],
    ["passages per second of Kasten's CPU", (build.passages / (build.cpuMs / 1000)).toFixed(0)],
  ];
  for (const [name, value] of rows) console.log(`| ${name.padEnd(52)} | ${cell(value)} |`);
}

if (wanted('vectors')) {
  // 20 queries a size: the slowest methods take half a second a query at 50k passages.
  const vectors = await measureEmbeddingSearch(
    undefined,
    undefined,
    Number(process.env.BENCH_VECTOR_QUERIES ?? 20),
  );
  for (const { chunks, dimensions, methods } of vectors) {
    const queries = methods[0]?.searchMs.length ?? 0;
    console.log(
      `\nVector store, ${chunks} passages of ${dimensions} dimensions (random), ${queries} queries for the 20 nearest, in process\n`,
    );
    console.log(
      `| ${'method'.padEnd(44)} | ${['write (s)', 'load (ms)', 'p50 (ms)', 'p95 (ms)', 'file (MB)', 'held (MB)'].map((name) => cell(name)).join(' | ')} |`,
    );
    console.log(`| ${'-'.repeat(44)} | ${Array(6).fill('---------:').join(' | ')} |`);
    for (const method of methods) {
      const values = [
        (method.writeMs / 1000).toFixed(1),
        ms(method.loadMs),
        ms(percentile(method.searchMs, 50)),
        ms(percentile(method.searchMs, 95)),
        method.megabytes.toFixed(0),
        method.heldMegabytes.toFixed(0),
      ];
      console.log(`| ${method.name.padEnd(44)} | ${values.map((value) => cell(value)).join(' | ')} |`);
    }
  }
}

console.log(
  `\nMachine check (a fixed single-core JavaScript workload; lower is faster): ${ms(checkBefore)} ms before the sections, ${ms(machineCheckMs())} ms after.`,
);
