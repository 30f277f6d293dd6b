import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

/** The page's globals used inside `evaluate` (the tests are type-checked without the DOM library). */
interface BrowserGlobals {
  getComputedStyle(element: unknown): { color: string };
  document: { fonts: { load(font: string): Promise<unknown[]> } };
}

const vault = join(import.meta.dirname, '..', 'fixtures', 'vaults', 'obsidian');

let server: RunningServer;
test.beforeEach(async () => {
  server = await startKastenServer({ vault });
});
test.afterEach(async () => {
  await server.stop();
});

async function openNote(page: Page, name: string): Promise<AppPage> {
  const app = new AppPage(page);
  if (!page.url().startsWith(server.origin)) await page.goto(server.url);
  await app.note(name).click();
  await expect(app.viewerTitle()).toHaveText(name);
  return app;
}

const titleColor = (page: Page, type: string) =>
  page
    .locator(`.callout[data-callout="${type}"] .callout-title`)
    .first()
    .evaluate((title) => (globalThis as unknown as BrowserGlobals).getComputedStyle(title).color);

test('callouts show an icon and a title, fold on a click, nest, and take Obsidian’s aliases', async ({
  page,
}, testInfo) => {
  const app = await openNote(page, 'Callouts');
  const callout = (type: string) => app.viewer.locator(`.callout[data-callout="${type}"]`);

  const note = callout('note').first();
  await expect(note.locator('.callout-title-text')).toHaveText('Note');
  await expect(note.locator('.callout-title-icon svg')).toBeVisible();
  await expect(note).toContainText('A note callout with the default title.');

  // A custom title is Markdown: its wikilink works.
  await expect(callout('tip').locator('.callout-title-text')).toHaveText('Custom title with a Math link');
  await expect(callout('tip').locator('.callout-title a.wikilink')).toHaveText('Math');

  // `-` starts folded, `+` starts open; both fold and unfold on a click on the title.
  const folded = callout('warning').first();
  await expect(folded).not.toHaveAttribute('open');
  await expect(folded.getByText('Hidden until the title is clicked.')).toBeHidden();
  await folded.locator('summary').click();
  await expect(folded.getByText('Hidden until the title is clicked.')).toBeVisible();
  await folded.locator('summary').click();
  await expect(folded.getByText('Hidden until the title is clicked.')).toBeHidden();
  const open = callout('question');
  await expect(open.getByText('Shown, and folds on a click.')).toBeVisible();
  await open.locator('summary').click();
  await expect(open.getByText('Shown, and folds on a click.')).toBeHidden();

  const inner = callout('example').locator('.callout-content .callout[data-callout="quote"]');
  await expect(inner.locator('.callout-title-text')).toHaveText('Inner callout');
  await expect(inner).toContainText('Nested inside the outer one.');

  // A type Obsidian does not know is a note titled with the type.
  const recipe = app.viewer.locator('.callout[data-callout="note"]', {
    hasText: 'A type Obsidian does not know',
  });
  await expect(recipe.locator('.callout-title-text')).toHaveText('Recipe');

  for (const [alias, type] of [
    ['tldr', 'abstract'],
    ['hint', 'tip'],
    ['caution', 'warning'],
    ['error', 'danger'],
    ['faq', 'question'],
    ['cite', 'quote'],
  ] as const) {
    await expect(callout(alias).locator('.callout-title-icon svg')).toBeVisible();
    expect(await titleColor(page, alias), `${alias} looks like ${type}`).toBe(await titleColor(page, type));
  }
  expect(await titleColor(page, 'warning')).not.toBe(await titleColor(page, 'note'));

  await expect(app.viewer.locator('blockquote')).toHaveText(
    'A plain quote that mentions [!note] stays a quote.',
  );
  await page.screenshot({ path: testInfo.outputPath('callouts.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('callouts-dark.png') });
});

test('math renders with KaTeX inline and as a block, with its bundled fonts; a bad formula shows as an error', async ({
  page,
}, testInfo) => {
  const app = await openNote(page, 'Math');
  await expect(app.viewer.locator('p .katex')).toHaveCount(2);
  await expect(app.viewer.locator('.katex-display')).toHaveCount(1);
  await expect(app.viewer.locator('.katex-display .katex-html')).toContainText('∫');
  await expect(app.viewer.locator('.katex-error')).toContainText('\\frac{1}{');
  await expect(app.viewer).toContainText('sits in the sentence');
  // The fonts come with the app (the CSP allows no other source): KaTeX's own face is the one in use.
  expect(
    await page.evaluate(
      async () =>
        (await (globalThis as unknown as BrowserGlobals).document.fonts.load('16px KaTeX_Main')).length,
    ),
  ).toBeGreaterThan(0);
  await page.screenshot({ path: testInfo.outputPath('math.png') });
});

test('highlights, footnotes and read-only tasks render as in Obsidian, in the note and in its embeds', async ({
  page,
}, testInfo) => {
  const app = await openNote(page, 'Formatting');
  const body = app.viewer.locator('.note-body > article');
  await expect(body.locator('mark').first()).toHaveText('a highlight');
  await expect(body.locator('mark').nth(1).locator('em')).toHaveText('emphasis');
  await expect(body.locator('code', { hasText: '==code==' })).toHaveCount(1);

  // Footnote references lead to their footnotes and back, within the note.
  const references = body.locator('sup a[data-footnote-ref]');
  await expect(references).toHaveText(['1', '2']);
  await page.setViewportSize({ width: 1440, height: 400 });
  await references.first().click();
  const footnote = body.locator('section.footnotes li').first();
  await expect(footnote).toContainText('The source of the claim.');
  await expect(footnote).toBeInViewport();
  await footnote.locator('a[data-footnote-backref]').click();
  await expect(references.first()).toBeInViewport();
  await page.setViewportSize({ width: 1440, height: 900 });

  const boxes = body.locator('li.task-list-item > input[type="checkbox"]');
  await expect(boxes).toHaveCount(3);
  await expect(boxes.nth(1)).toBeChecked();
  for (const box of await boxes.all()) await expect(box).toBeDisabled();
  await boxes.first().click({ force: true });
  await expect(boxes.first()).not.toBeChecked();

  // Embeds render through the same pipeline: a callout section, and a note with math.
  const embeds = app.viewer.getByTestId('note-embed');
  await expect(
    embeds.and(page.locator('[data-subpath="Aliases"]')).locator('.callout[data-callout="tldr"]'),
  ).toBeVisible();
  await expect(embeds.and(page.locator('[data-path="Math.md"]')).locator('.katex-display')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('formatting.png') });
});

test('raw HTML is sanitized: formatting shows; scripts, handlers, javascript: links and remote loads do not', async ({
  page,
}, testInfo) => {
  const remote: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname.endsWith('example.com')) remote.push(request.url());
  });
  const app = await openNote(page, 'Hostile HTML');
  const body = app.viewer.locator('.note-body > article');

  await expect(body.locator('kbd')).toHaveText(['Ctrl', 'K']);
  await expect(body.locator('sub')).toHaveText('2');
  await expect(body.locator('sup')).toHaveText('2');
  await expect(body.locator('mark')).toHaveText('marked');
  await expect(body.locator('span.custom-span')).toHaveText('a span');
  await expect(body.locator('div.custom-div')).toHaveText('A div with a class.');
  await expect(body.locator('td')).toHaveText(['one', 'two']);
  const details = body.locator('details', { hasText: 'HTML details' });
  await expect(details.getByText('Shown when opened.')).toBeHidden();
  await details.locator('summary').click();
  await expect(details.getByText('Shown when opened.')).toBeVisible();

  // Images from the vault and from the note itself load; the remote ones never do.
  await expect(body.locator('img.embedded-image[alt="local dot"]')).toHaveJSProperty('complete', true);
  expect(
    await body.locator('img[alt="local dot"]').evaluate((img: { naturalWidth: number }) => img.naturalWidth),
  ).toBe(8);
  expect(
    await body
      .locator('img[alt="inline square"]')
      .evaluate((img: { naturalWidth: number }) => img.naturalWidth),
  ).toBe(20);
  await expect(body.locator('.embed-missing', { hasText: 'Image not loaded: remote' })).toHaveCount(2);
  await expect(body.locator('img[src*="example.com"]')).toHaveCount(0);
  await expect(body.locator('script, iframe, style, form, [onerror]')).toHaveCount(0);
  await expect(body.getByText('A javascript link')).not.toHaveAttribute('href');
  await body.getByText('A javascript link').click();
  // The image named "x" is looked for in the vault, and is not there.
  await expect(body.locator('.embed-missing', { hasText: 'Image x' })).toBeVisible();

  await expect(body).toContainText('The end.');
  await expect(app.viewer.locator('.note-body')).toBeVisible();
  expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(remote).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('hostile-html.png') });

  // A relative HTML link opens the note in the viewer rather than taking the page elsewhere.
  await body.getByText('An HTML link to a note').click();
  await expect(app.viewerTitle()).toHaveText('Math');
  expect(new URL(page.url()).pathname).toBe('/');
});

test('a mermaid block is drawn as a diagram, with Mermaid loaded only for a note that has one', async ({
  page,
}, testInfo) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const app = await openNote(page, 'Callouts');
  await expect(app.viewer.locator('.callout').first()).toBeVisible();
  expect(scripts.filter((url) => url.includes('mermaid'))).toEqual([]);

  await app.note('Diagram').click();
  const diagram = app.viewer.locator('.mermaid-diagram svg');
  await expect(diagram).toBeVisible();
  for (const label of ['Idea', 'Note', 'Link'])
    await expect(diagram.getByText(label, { exact: true })).toBeVisible();
  await expect(app.viewer.getByTestId('mermaid').locator('pre')).toHaveCount(0);
  expect(scripts.some((url) => url.includes('mermaid-diagram'))).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('diagram.png') });
});

test('KaTeX and its styles are fetched only with the first note that has math', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (['script', 'stylesheet'].includes(request.resourceType())) fetched.push(request.url());
  });
  const app = await openNote(page, 'Callouts');
  await expect(app.viewer.locator('.callout').first()).toBeVisible();
  expect(fetched.filter((url) => /katex/i.test(url))).toEqual([]);
  // Nor is KaTeX's code inside the scripts the page started with.
  for (const url of fetched) {
    const text = await (await page.request.get(url)).text();
    expect(text.includes('KaTeX parse error'), `KaTeX inside ${url}`).toBe(false);
  }

  await app.note('Math').click();
  await expect(app.viewer.locator('.katex-display .katex-html')).toContainText('∫');
  expect(fetched.filter((url) => /note-katex-.*\.js$/.test(url))).toHaveLength(1);
  expect(fetched.filter((url) => /note-katex-.*\.css$/.test(url))).toHaveLength(1);
});

test('the notes show before the Markdown renderer is fetched; the first note opened brings it', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.note('Callouts')).toBeVisible();
  // Neither micromark (the Markdown parser) nor parse5 (raw HTML in notes) is in what the page loaded.
  const loaded = async () => Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
  for (const text of await loaded()) {
    expect(text.includes('micromark')).toBe(false);
    expect(text.includes('abandoned-head-element-child')).toBe(false);
  }

  await app.note('Callouts').click();
  await expect(app.viewer.locator('.callout').first()).toBeVisible();
  expect((await loaded()).some((text) => text.includes('micromark'))).toBe(true);
});
