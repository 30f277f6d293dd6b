// The browser host's cold start, from launching `kasten serve` to the first rendered note list.
import { chromium } from '@playwright/test';
import { chromiumExecutable } from '../../test/support/chromium.ts';
import { startKastenServer } from '../../test/support/kasten-server.ts';

export async function measureColdStart(runs: number) {
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
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
  return { serverReady, firstList, noteCount };
}
