import { expect, test } from '@playwright/test';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

const sampleVault = join(import.meta.dirname, '..', '..', 'resources', 'sample-vault');

function countNotes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (count, entry) =>
      count + (entry.isDirectory() ? countNotes(join(dir, entry.name)) : entry.name.endsWith('.md') ? 1 : 0),
    0,
  );
}

let server: RunningServer;
test.beforeEach(async () => {
  server = await startKastenServer();
});
test.afterEach(async () => {
  await server.stop();
});

test('the sample vault opens on first start, and notes and wikilinks open in the viewer', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);

  // The token moved from the address bar into a cookie.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /Sample Vault/ })).toBeVisible();
  await expect(app.note('Welcome to Kasten')).toBeVisible();
  await expect(app.note('Zettelkasten method')).toBeVisible();
  await expect(app.statusBar).toContainText(`${countNotes(sampleVault)} notes`);
  await expect(app.chat).toContainText('Ask your notes');
  await expect(app.references).toContainText('References');

  await app.note('Zettelkasten method').click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  await expect(app.viewer.getByRole('heading', { name: 'Links', exact: true })).toBeVisible();
  await expect(app.viewer.locator('img.embedded-image')).toBeVisible();
  expect(
    await app.viewer
      .locator('img.embedded-image')
      .evaluate((img: { naturalWidth: number }) => img.naturalWidth),
  ).toBeGreaterThan(0);
  await page.screenshot({ path: 'docs/screenshot-main.png' });

  await app.wikilink('Atomic notes').first().click();
  await expect(app.viewerTitle()).toHaveText('Atomic notes');
  await expect(app.note('Atomic notes')).toHaveAttribute('class', /selected/);
});

test('a broken wikilink is marked and says why', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const withBrokenLink = app.viewer.locator('a.wikilink-broken', { hasText: 'Commonplace book' });
  for (const name of await app.tree.getByRole('button').allInnerTexts()) {
    const button = app.note(name.trim());
    if ((await button.count()) !== 1) continue;
    await button.click();
    await expect(app.viewerTitle()).toHaveText(name.trim());
    if ((await withBrokenLink.count()) > 0) break;
  }
  await expect(withBrokenLink).toHaveAttribute('title', /No note named “Commonplace book”/);
});

test('a vault opened by path is remembered across restarts', async ({ page }) => {
  const app = new AppPage(page);
  const fixture = join(import.meta.dirname, '..', 'fixtures', 'vaults', 'basic');
  await page.goto(server.url);
  await page.getByRole('button', { name: /Sample Vault/ }).click();
  await page.getByLabel('Folder path').fill('/definitely/not/a/vault');
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('There is no folder at /definitely/not/a/vault');
  await page.getByLabel('Folder path').fill(fixture);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(app.statusBar).toContainText('3 notes');
  await expect(app.note('Home')).toBeVisible();

  await app.note('Home').click();
  await app.wikilink('the alpha project').click();
  await expect(app.viewerTitle()).toHaveText('Alpha');

  const dataDir = server.dataDir;
  await server.stop({ keepData: true });
  server = await startKastenServer({ dataDir });
  try {
    await page.goto(server.url);
    await expect(app.statusBar).toContainText('3 notes');
    await page.getByRole('button', { name: /basic/ }).click();
    await expect(page.getByRole('dialog', { name: 'Open a vault' })).toContainText('Sample Vault');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
