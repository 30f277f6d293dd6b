import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'vaults');

/** The page's globals used inside `evaluate` (the tests are type-checked without the DOM library). */
interface BrowserGlobals {
  __cspViolations: string[];
  document: {
    addEventListener(type: string, listener: (event: CspEvent) => void): void;
    fonts: { ready: Promise<unknown> };
  };
  getComputedStyle(element: unknown): { fontSize: string };
}

const fontSize = (element: unknown) =>
  (globalThis as unknown as BrowserGlobals).getComputedStyle(element).fontSize;
interface StyledElement {
  style: { height: string };
}
interface CspEvent {
  violatedDirective: string;
  blockedURI: string;
  sample: string;
}

/**
 * Everything the page complains about: console errors, uncaught exceptions, and CSP violations (those
 * are reported as events too, which catches one even when the console message is worded differently).
 */
async function watchComplaints(page: Page): Promise<() => Promise<string[]>> {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') complaints.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    const page = globalThis as unknown as BrowserGlobals;
    page.__cspViolations = [];
    page.document.addEventListener('securitypolicyviolation', (event) =>
      page.__cspViolations.push(`CSP ${event.violatedDirective}: ${event.blockedURI} ${event.sample}`),
    );
  });
  return async () => [
    ...complaints,
    ...(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__cspViolations)),
  ];
}

/** Opens every folder of the tree, then every note in it, waiting for each to show. */
async function openEveryNote(app: AppPage): Promise<void> {
  await expect(app.tree.getByRole('treeitem').first()).toBeVisible();
  const closed = app.tree.locator('li[aria-expanded="false"] .tree-folder');
  while ((await closed.count()) > 0) await closed.first().click();
  // Rows are told apart by their path (two notes may share a name).
  const notes = await app.tree.locator('.tree-note').all();
  expect(notes.length).toBeGreaterThan(0);
  for (const note of notes) {
    await note.click();
    await expect(app.viewerTitle()).toHaveText(await note.innerText());
  }
}

let server: RunningServer | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

for (const vault of [
  'obsidian',
  'viewer',
  'tables',
  'code',
  'unicode',
  'subpaths',
  'broken',
  'bad-files',
  'basic',
  'chat',
  'duplicates',
  'reading',
]) {
  test(`every note of the ${vault} fixture opens without a console error or a CSP violation`, async ({
    page,
  }) => {
    const complaints = await watchComplaints(page);
    server = await startKastenServer({ vault: join(fixtures, vault) });
    await page.goto(server.url);
    const app = new AppPage(page);
    await openEveryNote(app);
    if (vault === 'obsidian') {
      // What draws late: the diagram (Mermaid loads on demand), with labels the size of the note's text…
      await app.note('Diagram').click();
      const label = app.viewer.locator('.mermaid-diagram svg text', { hasText: 'Idea' });
      await expect(label).toBeVisible();
      const textSize = await app.viewer.locator('.note-body > article').evaluate(fontSize);
      expect(await label.evaluate(fontSize)).toBe(textSize);
      // …and math with KaTeX's fonts, its layout styles set (a strut's height places the baseline).
      await app.note('Math').click();
      await expect(app.viewer.locator('.katex-display')).toBeVisible();
      expect(
        await app.viewer
          .locator('.katex-display .strut')
          .first()
          .evaluate((strut: StyledElement) => strut.style.height),
      ).toMatch(/em$/);
      await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.fonts.ready);
    }
    if (vault === 'reading') {
      // What loads late: the PDF's pages (pdf.js loads on demand) and the players' files.
      await app.note('Reading view').click();
      await expect(app.viewer.locator('.pdf-page[data-drawn]')).not.toHaveCount(0);
      await expect
        .poll(() => app.viewer.locator('audio').evaluate((audio: { readyState: number }) => audio.readyState))
        .toBeGreaterThan(0);
    }
    expect(await complaints()).toEqual([]);
  });
}
