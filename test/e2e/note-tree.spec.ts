import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { writeHealthVault } from '../support/health-vault';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

const screenshots = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

let server: RunningServer;
let workspace: string;

test.beforeAll(async () => {
  // Five top-level folders (ar, en, en-archive, ko, zh) with folders inside, and Start.md.
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-tree-'));
  const vault = join(workspace, 'vault');
  writeHealthVault(vault, { notes: 40, linksPerNote: 5 });
  server = await startKastenServer({ vault });
  mkdirSync(screenshots, { recursive: true });
});
test.afterAll(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

test.use({ viewport: { width: 1280, height: 800 } });

const topLevel = ['ar', 'en', 'en-archive', 'ko', 'zh', 'Start'];

/** The page once the vault's tree is shown. */
async function openApp(page: Page): Promise<AppPage> {
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.statusBar).toContainText('46 notes');
  return app;
}

const rowNames = (app: AppPage) =>
  app.tree
    .getByRole('treeitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('.tree-name')!.textContent));

test('the tree starts with its top level only, remembers the folders opened across a reload, and closes them all', async ({
  page,
}) => {
  const app = await openApp(page);
  await expect.poll(() => rowNames(app)).toEqual(topLevel);
  for (const name of topLevel.slice(0, -1))
    await expect(app.folderRow(name)).toHaveAttribute('aria-expanded', 'false');
  await page.screenshot({ path: join(screenshots, 'tree-top-level-1280x800.png') });

  await app.folderRow('en').getByRole('button').click();
  await app.folderRow('Plugins').getByRole('button').click();
  await expect(app.note('Canvas')).toBeVisible();
  await page.reload();
  await expect(app.note('Canvas')).toBeVisible();
  await expect(app.folderRow('en')).toHaveAttribute('aria-expanded', 'true');
  await expect(app.folderRow('ar')).toHaveAttribute('aria-expanded', 'false');

  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect.poll(() => rowNames(app)).toEqual(topLevel);
  await expect(page.getByRole('button', { name: 'Collapse all' })).toBeDisabled();
  await page.reload();
  await expect(app.statusBar).toContainText('46 notes');
  await expect.poll(() => rowNames(app)).toEqual(topLevel);
});

test('a note opened from search or from a link is shown in the tree, its folders opened', async ({
  page,
}) => {
  const app = await openApp(page);
  await expect.poll(() => rowNames(app)).toEqual(topLevel);

  // From search: the tree comes back with the note's row selected and in view.
  const title = 'Release notes for version 0.0.36';
  await page.getByTestId('search-input').fill(title);
  await page.getByTestId('search-result').filter({ hasText: title }).first().click();
  await expect(app.viewerTitle()).toHaveText(title);
  await page.getByTestId('search-input').press('Escape');
  await expect(app.note(title)).toHaveAttribute('class', /selected/);
  await expect(app.note(title)).toBeInViewport();
  await expect(app.folderRow('en')).toHaveAttribute('aria-expanded', 'true');
  await expect(app.folderRow('Release notes')).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: join(screenshots, 'tree-revealed-1280x800.png') });

  // From a link in a note.
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await app.note('Start').click();
  await app.wikilink('the English canvas').click();
  await expect(app.viewerTitle()).toHaveText('Canvas');
  await expect(app.note('Canvas')).toHaveAttribute('class', /selected/);
  await expect(app.note('Canvas')).toBeInViewport();
  await expect(app.folderRow('Plugins')).toHaveAttribute('aria-expanded', 'true');
  await expect(app.tree.getByRole('treeitem', { name: 'Canvas' })).toHaveAttribute('aria-level', '3');
});

test('Home and End move to the first and the last row of the tree', async ({ page }) => {
  const app = await openApp(page);
  await expect.poll(() => rowNames(app)).toEqual(topLevel);
  // Every folder of Chinese notes open: the last row is far below.
  await app.folderRow('zh').getByRole('button').click();
  await app.folderRow('发布说明').getByRole('button').click();
  await app.folderRow('插件').getByRole('button').click();

  /** The name of the row the keys are on. */
  const active = async () => {
    const id = await app.tree.getAttribute('aria-activedescendant');
    return id ? app.tree.locator(`[id="${id}"] .tree-name`).textContent() : null;
  };
  // Tabbing into the tree puts no row under the keys yet: End still goes to the last.
  await page.getByRole('button', { name: 'Collapse all' }).focus();
  await page.keyboard.press('Tab');
  await expect(app.tree).toBeFocused();
  await page.keyboard.press('End');
  await expect.poll(active).toBe('Start');
  await expect(app.note('Start')).toBeInViewport();
  await page.keyboard.press('Home');
  await expect.poll(active).toBe('ar');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect.poll(active).toBe('en-archive');
  await page.keyboard.press('End');
  await expect.poll(active).toBe('Start');
});
