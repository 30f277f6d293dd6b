// `npm run bench`: measures what a user waits for and prints a table.
// For now: the browser host's cold start, from launching `kasten serve` to the first rendered note list.
import { chromium } from '@playwright/test';
import { cpus, totalmem } from 'node:os';
import { chromiumExecutable } from '../test/support/chromium.ts';
import { startKastenServer } from '../test/support/kasten-server.ts';

const runs = Number(process.env.BENCH_RUNS ?? 7);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const browser = await chromium.launch({
  executablePath: chromiumExecutable(),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});

const serverReady: number[] = [];
const firstList: number[] = [];
let noteCount = 0;
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  const server = await startKastenServer();
  serverReady.push(performance.now() - started);
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByRole('tree', { name: 'Notes' }).getByRole('button').first().waitFor();
  firstList.push(performance.now() - started);
  noteCount = Number((await page.getByTestId('note-count').textContent())?.match(/\d+/)?.[0] ?? 0);
  await page.close();
  await server.stop();
}
await browser.close();

const row = (name: string, values: number[]) =>
  `| ${name.padEnd(44)} | ${percentile(values, 50).toFixed(0).padStart(6)} | ${percentile(values, 95).toFixed(0).padStart(6)} | ${Math.min(
    ...values,
  )
    .toFixed(0)
    .padStart(6)} |`;

console.log(
  `\nKasten benchmark — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log(`Sample vault (${noteCount} notes), ${runs} runs, milliseconds\n`);
console.log(`| ${'measure'.padEnd(44)} |    p50 |    p95 |    min |`);
console.log(`| ${'-'.repeat(44)} | -----: | -----: | -----: |`);
console.log(row('browser host: launch → URL printed', serverReady));
console.log(row('browser host: launch → first note list shown', firstList));
