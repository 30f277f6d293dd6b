import { expect, test, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

/** The page's globals and elements used inside `evaluate` (the tests are type-checked without the DOM). */
interface BrowserGlobals {
  getComputedStyle(element: unknown): { color: string };
}
interface Media {
  readyState: number;
  duration: number;
  videoWidth?: number;
}
interface Canvas {
  width: number;
  height: number;
  getContext(type: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: number[] } };
}
interface Box {
  getBoundingClientRect(): { top: number };
  scrollTop: number;
}

const vault = join(import.meta.dirname, '..', 'fixtures', 'vaults', 'reading');
const colorOf = (locator: Locator) =>
  locator.evaluate((element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).color);

let server: RunningServer;
test.beforeEach(async () => {
  server = await startKastenServer({ vault });
});
test.afterEach(async () => {
  await server.stop();
});

/** Console errors, uncaught exceptions and every request the page makes while `run` runs. */
async function watch(page: Page) {
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  return { errors, requests };
}

async function openNote(page: Page, name: string): Promise<AppPage> {
  const app = new AppPage(page);
  if (!page.url().startsWith(server.origin)) await page.goto(server.url);
  await app.note(name).click();
  await expect(app.viewerTitle()).toHaveText(name);
  return app;
}

/** The fixture's main note on a laptop screen, with what the page complains of and asks for. */
async function openReadingView(page: Page) {
  const seen = await watch(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await openNote(page, 'Reading view');
  return { app, body: app.viewer.locator('.note-body > article'), seen };
}

test('the reading view shows properties, tags, footnotes and highlighted code, and hides comments', async ({
  page,
}, testInfo) => {
  const { app, body, seen } = await openReadingView(page);

  // Properties, above the text, as a table: lists item by item, tags as tags, a checkbox, a link.
  const properties = body.getByRole('region', { name: 'Properties' });
  const row = (key: string) =>
    properties.getByRole('row').filter({ has: page.getByRole('rowheader', { name: key }) });
  await expect(properties.getByRole('rowheader')).toHaveText([
    'aliases',
    'tags',
    'status',
    'reviewed',
    'rating',
    'source',
    'homepage',
    'empty',
  ]);
  await expect(row('aliases')).toContainText('What Obsidian shows');
  await expect(row('tags').locator('a.tag')).toHaveText(['#reading', '#fixture/obsidian']);
  await expect(row('reviewed').getByRole('checkbox')).toBeChecked();
  await expect(row('rating')).toContainText('4');
  await expect(row('empty')).toContainText('Empty');
  await expect(row('homepage').getByRole('link')).toHaveAttribute('href', 'https://example.com/reading');
  const first = await body.evaluate((article) => article.firstElementChild?.getAttribute('aria-label'));
  expect(first).toBe('Properties');

  // `%%` comments are hidden, inline and across blocks; in code they are text.
  await expect(body).not.toContainText('must stay hidden');
  await expect(body).not.toContainText('%%inline');
  await expect(body.locator('p', { hasText: 'This line has an' })).toHaveText(
    'This line has an and goes on.',
  );
  await expect(body.locator('code.language-js')).toContainText('// %% inside code is kept %%');

  // Code is highlighted as in the chat: keywords, strings and comments in their own colours.
  const js = body.locator('code.language-js');
  await expect(js.locator('.hljs-keyword').first()).toHaveText('function');
  await expect(body.locator('code.language-python .hljs-keyword').first()).toHaveText('def');
  const plain = await colorOf(js);
  expect(await colorOf(js.locator('.hljs-keyword').first())).not.toBe(plain);
  expect(await colorOf(js.locator('.hljs-string'))).not.toBe(plain);

  // Inline tags are tags; a number after `#` and code are not.
  const paragraph = body.locator('p', { hasText: 'Tagged' });
  await expect(paragraph.locator('a.tag')).toHaveText(['#project/alpha', '#reading']);
  await expect(paragraph).toContainText('but #123 is no tag');
  await expect(paragraph.locator('code')).toHaveText('#code');

  // Inline and regular footnotes, numbered together in the order they are referenced.
  await expect(body.locator('sup [data-footnote-ref]')).toHaveText(['1', '2']);
  const notes = body.locator('section.footnotes li');
  await expect(notes).toHaveCount(2);
  await expect(notes.nth(0)).toContainText('The inline footnote, with a link inside.');
  await expect(notes.nth(0).locator('a.wikilink')).not.toHaveClass(/wikilink-broken/);
  await expect(notes.nth(1)).toContainText('The regular footnote.');
  await expect(body).not.toContainText('^[');

  await page.screenshot({ path: testInfo.outputPath('reading-view-1280x800.png') });

  // A click on a tag searches for it, as Obsidian's does.
  await paragraph.locator('a.tag', { hasText: '#project/alpha' }).click();
  await expect(page.getByTestId('search-input')).toHaveValue('tag:#project/alpha');
  await expect(page.getByRole('listbox', { name: 'Search results' })).toBeVisible();

  // A link among the properties opens its note.
  await row('source').getByRole('link', { name: 'Sources' }).click();
  await expect(app.viewerTitle()).toHaveText('Sources');
  expect(seen.errors).toEqual([]);
});

test('audio and video embeds play the vault’s files, a PDF shows its pages, and nothing remote loads', async ({
  page,
}, testInfo) => {
  const { app, body, seen } = await openReadingView(page);

  // The players read the files through the host (typed by extension): their lengths are known.
  const audio = body.locator('audio');
  await expect(audio).toHaveAttribute('src', /^blob:/);
  await expect(audio).toHaveAttribute('controls');
  await expect.poll(() => audio.evaluate((element: Media) => element.duration)).toBeCloseTo(0.5, 1);
  const video = body.locator('video');
  await expect(video).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => video.evaluate((element: Media) => element.videoWidth)).toBe(64);
  // Nothing plays until asked.
  expect(await audio.evaluate((element: { paused: boolean }) => element.paused)).toBe(true);

  // The PDF: its pages drawn, opened at the page the link names (`#page=2`).
  const pdf = body.getByTestId('pdf-embed');
  await expect(pdf.locator('figcaption')).toHaveText(/field-notes\.pdf\s*4 pages/);
  const pages = pdf.getByRole('group', { name: /^Page \d of field-notes\.pdf$/ });
  await expect(pages).toHaveCount(4);
  await expect(pages.nth(1)).toHaveAttribute('data-drawn', 'true');
  const inked = await pages
    .nth(1)
    .locator('canvas')
    .evaluate((canvas: Canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let index = 0; index < data.length; index += 4) if (data[index]! < 200) dark++;
      return dark;
    });
  expect(inked).toBeGreaterThan(50);
  // Its text lies over the drawing, to select and copy, on the page it is on.
  await expect(pages.nth(1)).toHaveText('Page two: the river rises in March.');
  await expect(pages.nth(0)).toContainText('The heron waits at the weir.');
  const pane = pdf.locator('.pdf-embed-pages');
  const offset = await pane.evaluate((element: Box) => {
    const page = (element as unknown as { querySelector(s: string): Box }).querySelector('[data-page="2"]');
    return page.getBoundingClientRect().top - element.getBoundingClientRect().top;
  });
  expect(await pane.evaluate((element: Box) => element.scrollTop)).toBeGreaterThan(0);
  expect(Math.abs(offset - 12)).toBeLessThan(2);

  await body.getByRole('heading', { name: 'Media' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('reading-view-media-1280x800.png') });

  // A note that tries to load or play from elsewhere: nothing of it is in the page, nothing is asked for.
  await openNote(page, 'Hostile media');
  const hostile = app.viewer.locator('.note-body > article');
  await expect(hostile.locator('audio')).toHaveCount(1);
  await expect(hostile.locator('audio')).toHaveAttribute('src', /^blob:/);
  await expect(hostile.locator('video, iframe, embed, object')).toHaveCount(0);
  await expect(hostile.locator('.embed-missing', { hasText: 'outside.pdf' })).toBeVisible();
  const files = seen.requests.filter((url) => !/^(blob|data):/.test(url) && !url.startsWith(server.origin));
  expect(files).toEqual([]);
  expect(seen.requests.filter((url) => url.includes('example.com'))).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('a block embed shows its block without a label, and backlinks read as text', async ({ page }) => {
  const app = await openNote(page, 'Reading view');
  const embed = app.viewer.getByTestId('note-embed').and(page.locator('[data-subpath="^key-point"]'));
  await expect(embed).toHaveText('A key point worth quoting in full.');
  await expect(embed).not.toContainText('Sources#^key-point');

  // The backlinks from Sources: list, emphasis and callout marks and the comment gone, the link marked.
  const backlinks = app.viewer.getByTestId('backlink');
  await expect(backlinks).toHaveText([
    'Read the Reading view note for everything it shows.',
    'The reading view hides comments.',
  ]);
  await expect(backlinks.locator('mark')).toHaveText(['Reading view', 'reading view']);

  // The embed's corner button opens the block in its note.
  await embed.getByRole('button', { name: 'Open Sources#^key-point' }).click();
  await expect(app.viewerTitle()).toHaveText('Sources');
  await expect(app.viewer.getByText('A key point worth quoting in full.')).toBeInViewport();
});
