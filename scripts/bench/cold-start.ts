// The browser host's cold start, from launching `kasten serve` to the first rendered note list.
import { chromium } from '@playwright/test';
import { chromiumExecutable } from '../../test/support/chromium.ts';
import { startKastenServer } from '../../test/support/kasten-server.ts';

export interface ColdStartFigures {
  serverReady: number[];
  firstList: number[];
  noteCount: number;
}

/**
 * `runs` cold starts of each built checkout in `roots` (this one by default), interleaved so that a slow
 * phase of the machine falls on each alike.
 */
export async function measureColdStart(runs: number, roots: (string | undefined)[] = [undefined]) {
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const figures: ColdStartFigures[] = roots.map(() => ({ serverReady: [], firstList: [], noteCount: 0 }));
  for (let run = 0; run < runs; run++) {
    for (const [index, root] of roots.entries()) {
      const figure = figures[index]!;
      const started = performance.now();
      const server = await startKastenServer({ root });
      figure.serverReady.push(performance.now() - started);
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.getByRole('tree', { name: 'Notes' }).getByRole('button').first().waitFor();
      figure.firstList.push(performance.now() - started);
      figure.noteCount = Number((await page.getByTestId('note-count').textContent())?.match(/\d+/)?.[0] ?? 0);
      await page.close();
      await server.stop();
    }
  }
  await browser.close();
  return figures;
}
