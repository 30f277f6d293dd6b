import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { readmeScreenshot } from '../support/readme-screenshot';

const vault = join(import.meta.dirname, '..', 'fixtures', 'vaults', 'viewer');

let server: RunningServer;
test.beforeEach(async () => {
  server = await startKastenServer({ vault });
});
test.afterEach(async () => {
  await server.stop();
});

test('embeds show a heading section, a block and a sized image, and stop at a cycle', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Start here').click();

  const embeds = app.viewer.getByTestId('note-embed');
  const steps = embeds.and(page.locator('[data-subpath="Steps"]'));
  await expect(steps).toContainText('Write one idea per note.');
  await expect(steps).toContainText('Links carry the context');
  await expect(steps).not.toContainText('An introduction');
  await expect(steps).not.toContainText('Why it works');

  const block = embeds.and(page.locator('[data-subpath="^core-idea"]'));
  await expect(block).toContainText('Notes gain value from their connections');
  // The block id marks the paragraph; like Obsidian, the viewer does not show it.
  await expect(block.locator('p')).toHaveText('Notes gain value from their connections, not their count.');
  await expect(block).not.toContainText('Filler');

  const image = app.viewer.locator('img.embedded-image');
  await expect(image).toBeVisible();
  // The size asked for (|240), or the width of the note when the pane is narrower.
  const { width, room } = await image.evaluate(
    (img: { width: number; parentElement: { clientWidth: number } | null }) => ({
      width: img.width,
      room: img.parentElement?.clientWidth ?? 0,
    }),
  );
  expect(width).toBe(Math.min(240, room));

  await expect(embeds.and(page.locator('[data-path="Loop two.md"]'))).toContainText(
    'Loop two embeds loop one again',
  );
  await expect(app.viewer.locator('.embed-notice')).toContainText('already shown above');
  await readmeScreenshot(page, 'embeds');
});

test('an ambiguous link lists its candidates; broken links and subpaths say why', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Start here').click();

  const ambiguous = app.viewer.locator('a.wikilink-ambiguous', { hasText: 'Index' });
  await expect(ambiguous).toHaveAttribute(
    'title',
    /Ambiguous: 2 files are named “Index”; chose a\/Index\.md/,
  );
  await ambiguous.click();
  const menu = app.viewer.getByRole('menu', { name: 'Notes named “Index”' });
  await expect(menu.getByRole('menuitem')).toHaveText(['a/Index.md — chosen', 'b/Index.md']);
  await menu.getByRole('menuitem', { name: 'b/Index.md' }).click();
  await expect(app.viewerTitle()).toHaveText('Index');
  await expect(app.viewer).toContainText('The index of folder b.');

  await app.note('Start here').click();
  await expect(
    app.viewer.locator('a.wikilink-broken-subpath', { hasText: 'Method#No such heading' }),
  ).toHaveAttribute('title', 'No heading “No such heading” in “Method”.');
  await expect(app.viewer.locator('a.wikilink-broken', { hasText: 'Nowhere' })).toHaveAttribute(
    'title',
    'No note named “Nowhere”.',
  );
});

test('a block link opens the note scrolled to the block; a backlink opens its line', async ({ page }) => {
  const app = new AppPage(page);
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(server.url);
  await app.note('Start here').click();
  await app.wikilink('The core idea').click();
  await expect(app.viewerTitle()).toHaveText('Method');
  await expect(app.viewer.getByText('Notes gain value from their connections')).toBeInViewport();
  await expect(app.viewer.getByText('An introduction that the heading embed')).not.toBeInViewport();

  const backlink = page.getByTestId('backlink').filter({ hasText: 'jumps to a block' });
  await backlink.click();
  await expect(app.viewerTitle()).toHaveText('Start here');
  await expect(app.viewer.locator('li', { hasText: 'jumps to a block' })).toBeInViewport();
});
