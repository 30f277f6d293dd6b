import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  const diagram = app.viewer.locator('img.embedded-image');
  await expect(diagram).toBeVisible();
  expect(await diagram.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(480);

  await app.wikilink('Links between notes').first().click();
  await expect(app.viewerTitle()).toHaveText('Links between notes');
  await expect(app.note('Links between notes')).toHaveAttribute('class', /selected/);
});

test('a heading link opens the note at the heading; a broken link says why', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.openFolders('concepts');
  await app.note('Atomic notes').click();
  await app.wikilink('Zettelkasten method#Links').click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  await expect(app.viewer.getByRole('heading', { name: 'Links', exact: true })).toBeInViewport();

  await app.note('Links between notes').click();
  const broken = app.viewer.locator('a.wikilink-broken', { hasText: 'Commonplace book' });
  await expect(broken).toHaveAttribute('title', /No note named “Commonplace book”/);
  await broken.click();
  await expect(app.viewerTitle()).toHaveText('Links between notes');
  // Link-like text in code is not a link.
  await expect(app.viewer.locator('code', { hasText: '[[also not a link]]' })).toBeVisible();
  await expect(app.wikilink('not a link')).toHaveCount(0);
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

test('a vault of thousands of notes shows its tree at once and scrolls to the last note', async ({
  page,
}) => {
  const app = new AppPage(page);
  const base = mkdtempSync(join(tmpdir(), 'kasten-big-'));
  const vault = join(base, 'vault');
  for (const folder of ['archive', 'projects']) mkdirSync(join(vault, folder), { recursive: true });
  for (let index = 0; index < 3000; index++)
    writeFileSync(join(vault, 'archive', `Note ${String(index).padStart(4, '0')}.md`), `# Note ${index}\n`);
  writeFileSync(join(vault, 'projects', 'Plan.md'), '# Plan\n\n[[Note 2999]]\n');
  await server.stop();
  server = await startKastenServer({ vault });
  try {
    await page.goto(server.url);
    await expect(app.statusBar).toContainText('3001 notes');
    await app.openFolders('projects');
    await app.openFolders('archive');
    await expect(app.note('Note 0000')).toBeVisible();
    // Only the rows in view are in the page, not 3,000.
    expect(await app.tree.getByRole('treeitem').count()).toBeLessThan(120);
    await expect(app.folder('archive')).toContainText('3000');

    await app.tree.evaluate((tree) => tree.parentElement!.scrollTo({ top: tree.scrollHeight }));
    await app.note('Note 2999').click();
    await expect(app.viewerTitle()).toHaveText('Note 2999');
    await expect(app.note('Note 2999')).toHaveAttribute('class', /selected/);
    await expect(app.note('Plan')).toBeVisible();

    // A folder closes and opens again; what follows it moves up into view.
    await app.tree.evaluate((tree) => tree.parentElement!.scrollTo({ top: 0 }));
    await app.folder('archive').click();
    await expect(app.note('Note 0000')).toHaveCount(0);
    await expect(app.note('Plan')).toBeVisible();
    await app.folder('archive').click();
    await expect(app.note('Note 0000')).toBeVisible();

    // The keyboard: the tree is one tab stop, arrows move, End reaches the last row far below.
    await app.folder('archive').click();
    await app.folder('archive').click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(app.viewerTitle()).toHaveText('Note 0001');
    await page.keyboard.press('End');
    await expect(app.note('Plan')).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(app.viewerTitle()).toHaveText('Plan');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(app.note('Plan')).toHaveCount(0);
    await page.keyboard.press('ArrowRight');
    await expect(app.note('Plan')).toBeVisible();
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
