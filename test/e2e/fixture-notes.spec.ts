import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'vaults');

let server: RunningServer | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

/** Opens a fixture vault in the browser host (read only: these tests change no file). */
async function openFixture(page: Page, name: string): Promise<AppPage> {
  server = await startKastenServer({ vault: join(fixtures, name) });
  await page.goto(server.url);
  return new AppPage(page);
}

test('in the code fixture, link-like text in code and comments is not a link and comments are hidden', async ({
  page,
}) => {
  const app = await openFixture(page, 'code');
  await app.note('Code').click();
  await expect(app.viewer.getByRole('heading', { name: 'Code', level: 1 })).toBeVisible();

  // The five real links, all to Target; every [[Nope …]] is shown as code, never as a link.
  const links = app.viewer.locator('.note-body a.wikilink');
  await expect(links).toHaveCount(5);
  await expect(links).toHaveText(['Target', 'Target#Target', 'Target', 'Target', 'Target']);
  for (const inCode of ['one', 'two', 'three', 'four', 'five', 'nine', 'ten', 'eleven', 'twelve']) {
    await expect(app.viewer.locator('code', { hasText: `[[Nope ${inCode}]]` })).toHaveCount(1);
  }
  // HTML comments are not shown, as in Obsidian's reading view.
  for (const inComment of ['six', 'seven', 'eight']) {
    await expect(app.viewer).not.toContainText(`Nope ${inComment}`);
  }
  await expect(app.viewer).toContainText('Text then Target#Target after an inline comment.');
  // A fence never closed runs to the end of the note.
  await expect(app.viewer.locator('pre', { hasText: '[[Nope fifteen]]' })).toBeVisible();
});

test('in the tables fixture, links with escaped pipes work in cells and a sized image shows', async ({
  page,
}) => {
  const app = await openFixture(page, 'tables');
  await app.note('Table').click();
  const table = app.viewer.locator('table').first();
  await expect(table.locator('a.wikilink')).toHaveText([
    'shown',
    'part',
    'block',
    'Target',
    'gone',
    'Target#Part one',
  ]);
  await expect(table.locator('a.wikilink', { hasText: 'gone' })).toHaveClass(/wikilink-broken/);
  const image = table.locator('img.embedded-image');
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: { width: number }) => img.width)).toBe(100);

  await table.getByRole('link', { name: 'part', exact: true }).click();
  await expect(app.viewerTitle()).toHaveText('Target');
  await expect(app.viewer.getByRole('heading', { name: 'Part one' })).toBeInViewport();
});

test('in the unicode fixture, links match across case and accents and open emoji and decomposed names', async ({
  page,
}) => {
  const app = await openFixture(page, 'unicode');
  await app.note('Links').click();
  // Accents are not ignored: [[Cafe]] and [[Uber uns]] are broken, the other spellings resolve; an alias
  // names no note.
  await expect(app.viewer.locator('a.wikilink-broken')).toHaveText(['Cafe', 'Uber uns', 'l’année']);
  await expect(app.viewer.locator('a.wikilink-ambiguous')).toHaveText(['draft', 'DRAFT']);

  await app.wikilink('🦊 fox#Den 🏠').click();
  await expect(app.viewerTitle()).toHaveText('🦊 Fox');
  await expect(app.viewer.getByRole('heading', { name: 'Den 🏠' })).toBeVisible();
  // Three links to it share one short line of Links: the backlinks show that line once.
  await expect(app.viewer.getByRole('region', { name: 'Backlinks' }).getByRole('heading')).toHaveText(
    'Backlinks 1',
  );
  await expect(page.getByTestId('backlink')).toHaveCount(1);
  // The linking line reads as text, each of its three links here marked.
  await expect(page.getByTestId('backlink')).toContainText('🦊 Fox, 🦊 fox#Den 🏠, 🦊 Fox#^fox-den');
  await expect(page.getByTestId('backlink').locator('mark')).toHaveText([
    '🦊 Fox',
    '🦊 fox#Den 🏠',
    '🦊 Fox#^fox-den',
  ]);

  await app.note('Links').click();
  // Typed composed, stored decomposed on disk: the note opens, under its name as it is on disk.
  await app.wikilink('résumés/année 2026').click();
  await expect(app.viewerTitle()).toHaveText('Année 2026'.normalize('NFD'));
  await expect(app.viewer).toContainText('In a folder with an accented name.');
});
