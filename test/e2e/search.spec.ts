import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { writeSyntheticVault } from '../support/synthetic-vault';

let server: RunningServer;
let workspace: string;
let vault: string;

test.beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-search-'));
  vault = join(workspace, 'vault');
});
test.afterEach(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

test('the search panel says how many notes match and shows more of them on request', async ({ page }) => {
  // Nearly every synthetic note holds nearly every word of its small vocabulary.
  writeSyntheticVault(vault, { notes: 160, seed: 5 });
  server = await startKastenServer({ vault });
  await page.goto(server.url);
  await expect(page.getByTestId('health-button')).not.toHaveText('Vault health', { timeout: 30_000 });
  await page.getByTestId('search-input').fill('note');
  const results = page.getByTestId('search-result');
  await expect(results).toHaveCount(50);
  const total = page.getByTestId('search-total');
  await expect(total).toContainText(/^50 of \d+ notes/);
  const found = Number((await total.textContent())!.match(/of (\d+) notes/)![1]);
  expect(found).toBeGreaterThan(100);

  await page.getByTestId('search-more').click();
  await expect(results).toHaveCount(100);
  await expect(total).toContainText(`100 of ${found} notes`);
  // The next page follows on from the first: no note twice.
  const titles = await results.locator('.search-title').allTextContents();
  const paths = await results.locator('.search-folder').allTextContents();
  expect(new Set(titles.map((title, index) => `${paths[index]}/${title}`)).size).toBe(100);
  // Each click shows the next fifty once they came; the last page takes the button away.
  for (let shown = 100; shown < found;) {
    await page.getByTestId('search-more').click();
    shown = Math.min(found, shown + 50);
    await expect(results).toHaveCount(shown);
  }
  await expect(total).toHaveText(`${found} notes`);
  await expect(page.getByTestId('search-more')).toHaveCount(0);
});

test('during a first index the results say they are partial, and stop saying so once it is done', async ({
  page,
}) => {
  const notes = writeSyntheticVault(vault, { notes: 8000, seed: 7 }).notes;
  server = await startKastenServer({ vault });
  await page.goto(server.url);
  await expect(page.getByRole('progressbar', { name: 'Indexing' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('search-input').fill('note');
  const partial = page.getByTestId('search-partial');
  await expect(partial).toContainText(`notes read): results are partial.`);
  await expect(partial).toContainText(`of ${notes.toLocaleString('en-US')} notes`);
  // The end of the pass runs the search again, over the whole index.
  await expect(page.getByRole('progressbar', { name: 'Indexing' })).toHaveCount(0, { timeout: 60_000 });
  await expect(partial).toHaveCount(0);
  await expect(page.getByTestId('search-result').first()).toBeVisible();
});
