import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { writeSyntheticVault } from '../support/synthetic-vault';

let server: RunningServer;
let workspace: string;
let notes: number;

test.beforeEach(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-indexing-'));
  // Large enough that the first index pass is still running when the page is up.
  notes = writeSyntheticVault(join(workspace, 'vault'), { notes: 8000, seed: 7 }).notes;
  server = await startKastenServer({ vault: join(workspace, 'vault') });
});
test.afterEach(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

test('a cold index shows its progress and can be cancelled', async ({ page }) => {
  await page.goto(server.url);
  const progress = page.getByTestId('index-progress');
  await expect(progress.getByRole('progressbar', { name: 'Indexing' })).toBeVisible({ timeout: 30_000 });
  await expect(progress).toContainText(`/ ${notes.toLocaleString('en-US')}`);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Indexing cancelled; it resumes next time.')).toBeVisible();
  await expect(progress).toHaveCount(0);
});
