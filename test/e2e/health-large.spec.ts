import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { writeHealthVault, type HealthVaultFacts } from '../support/health-vault';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

const screenshots = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

let server: RunningServer;
let workspace: string;
let facts: HealthVaultFacts;

test.beforeAll(async () => {
  // 400 notes of 25 issues each, and one more: 10,001 issues, written for this run and removed after it.
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-health-large-'));
  const vault = join(workspace, 'vault');
  facts = writeHealthVault(vault, { notes: 400, linksPerNote: 25 });
  server = await startKastenServer({ vault });
  mkdirSync(screenshots, { recursive: true });
});
test.afterAll(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** Opens the page and the health view once the vault is indexed. */
async function openHealth(page: Page): Promise<Locator> {
  await page.goto(server.url);
  await expect(page.getByTestId('health-button')).toHaveText(`⚠ ${facts.issues} issues`, { timeout: 60_000 });
  await page.getByTestId('health-button').click();
  const health = page.getByTestId('health-view');
  await expect(health.getByTestId('health-total')).toHaveText(
    `${facts.issues.toLocaleString('en-US')} issues`,
  );
  return health;
}

const section = (health: Locator, title: string) =>
  health.getByTestId('health-section').filter({ hasText: title });
const group = (health: Locator, target: string) =>
  health
    .getByTestId('health-group')
    .filter({ has: health.page().locator('.health-target', { hasText: target }) });

test('the health view groups 10,001 issues by kind and target, with only the rows in view in the page', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const health = await openHealth(page);
  await expect(section(health, 'Broken links')).toContainText('4,001 links to 1,200 targets');
  const rows = health.locator('.health-row');
  expect(await rows.count()).toBeLessThan(60);
  // The rest is below the 1,200 groups of broken links: folding them brings it up.
  await expect(section(health, 'Broken headings and blocks')).toHaveCount(0);
  await section(health, 'Broken links').click();
  await expect(section(health, 'Broken headings and blocks')).toContainText('2,000 links to 20 targets');
  await section(health, 'Broken headings and blocks').click();
  await expect(section(health, 'Ambiguous links')).toContainText('4,000 links to 1 target');
  // The ambiguous links are one group, with what it is about.
  const canvas = group(health, 'Canvas');
  await expect(canvas).toContainText('Canvas — 4 notes share this name — 4,000 links in 400 notes');
  await page.screenshot({ path: join(screenshots, 'health-grouped-1280x800.png') });

  // Its 4,000 links are listed as they come into view, a page at a time.
  await canvas.click();
  await expect(canvas).toHaveAttribute('aria-expanded', 'true');
  const links = health.getByTestId('health-link');
  await expect(links.first()).toContainText(`${facts.pathOf(1)}:3`);
  await expect(links.first()).toContainText('[[Canvas]]');
  expect(await rows.count()).toBeLessThan(60);
  // The last of them: the last note by path (a Chinese one), its last [[canvas|…]], on line 28.
  const lastNote = Array.from({ length: 400 }, (_, index) => facts.pathOf(index))
    .sort()
    .at(-1)!;
  // Rows are measured as they come into view, so the end moves while it is being reached.
  const list = health.getByTestId('health-list');
  await expect
    .poll(async () => {
      await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
      return links.filter({ hasText: `${lastNote}:28` }).count();
    })
    .toBe(1);
  await expect(health.getByTestId('health-link-loading')).toHaveCount(0);
  expect(await rows.count()).toBeLessThan(60);
  await page.screenshot({ path: join(screenshots, 'health-group-open-1280x800.png') });

  // The page still answers at once: filtering to a folder counts its issues only.
  await health.getByLabel('Folder').selectOption('ar');
  await expect(health.getByTestId('health-total')).toHaveText('2,500 issues');
  await expect(group(health, 'Canvas')).toContainText('1,000 links in 100 notes');
  await expect(links).toHaveCount(0);
  await group(health, 'Canvas').click();
  await expect(links.first()).toContainText(`${facts.pathOf(1)}:3`);
  await expect(links.filter({ hasText: /^(?!ar\/)/ })).toHaveCount(0);
  await page.screenshot({ path: join(screenshots, 'health-folder-ar-1280x800.png') });

  // A link opens its note at its line.
  await links.first().click();
  await expect(new AppPage(page).viewerTitle()).toHaveText(facts.pathOf(1).split('/').at(-1)!.slice(0, -3));
});

test('the health view keeps its scroll, open groups and folder when closed and opened again', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const health = await openHealth(page);
  const list = health.getByTestId('health-list');
  await list.evaluate((element) => (element.scrollTop = 12_000));
  const firstShown = async () =>
    list.evaluate((element) => {
      const top = element.getBoundingClientRect().top;
      const row = [...element.querySelectorAll('.health-row')]
        .filter((candidate) => candidate.getBoundingClientRect().bottom > top + 1)
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
      return { text: row?.textContent ?? '', offset: Math.round(row!.getBoundingClientRect().top - top) };
    });
  await expect(list.locator('.health-row', { hasText: 'Missing note' }).first()).toBeVisible();
  const before = await firstShown();
  expect(before.text).toContain('Missing note');

  await health.getByRole('button', { name: 'Close vault health' }).click();
  await expect(health).toHaveCount(0);
  await page.getByTestId('health-button').click();
  await expect.poll(firstShown).toEqual(before);

  // Opening a link and coming back finds the open group where it was, with the same folder.
  await health.getByLabel('Folder').selectOption('zh');
  await section(health, 'Broken links').click();
  await group(health, 'Canvas').click();
  await list.evaluate((element) => (element.scrollTop = 3_000));
  await expect(health.getByTestId('health-link-loading')).toHaveCount(0);
  const inGroup = await firstShown();
  // A link fully in view, so that clicking it scrolls nothing.
  const inView = await list.evaluate((element) => {
    const frame = element.getBoundingClientRect();
    return [...element.querySelectorAll('[data-testid="health-link"]')].findIndex((candidate) => {
      const box = candidate.getBoundingClientRect();
      return box.top >= frame.top && box.bottom <= frame.bottom;
    });
  });
  await health.getByTestId('health-link').nth(inView).click();
  await expect(health).toHaveCount(0);
  await page.getByTestId('health-button').click();
  await expect(health.getByLabel('Folder')).toHaveValue('zh');
  await expect.poll(firstShown).toEqual(inGroup);
});

/** Every box of text drawn in the rows of the list `root`, and the list's edges. */
function textBoxes(root: Locator) {
  return root.evaluate((list) => {
    const boxes: { row: number; text: string; left: number; right: number; top: number; bottom: number }[] =
      [];
    const rows = [...list.querySelectorAll('.health-row')];
    for (const row of rows) {
      const walker = list.ownerDocument.createTreeWalker(row, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = list.ownerDocument.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          if (rect.width === 0 || rect.height === 0) continue;
          boxes.push({ text: node.textContent, ...rect.toJSON() });
        }
      }
    }
    const { left, right } = list.getBoundingClientRect();
    return { boxes, frame: { left, right }, scrolls: list.scrollWidth > list.clientWidth };
  });
}

for (const width of [1024, 1280, 1440]) {
  test(`no text of the health view overlaps other text or leaves it sideways at ${width} px, in Arabic and Chinese folders`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const health = await openHealth(page);
    for (const folder of ['ar', 'zh', 'en']) {
      await health.getByLabel('Folder').selectOption(folder);
      // The first group of broken links, in the folder's script, open.
      await health.getByTestId('health-group').first().click();
      await expect(health.getByTestId('health-link').first()).toContainText(`${folder}/`);
      await expect(health.getByTestId('health-link-loading')).toHaveCount(0);

      const { boxes, frame, scrolls } = await textBoxes(health.getByTestId('health-list'));
      expect(scrolls, `the list scrolls sideways in ${folder}/`).toBe(false);
      expect(boxes.length).toBeGreaterThan(20);
      const outside = boxes.filter((box) => box.left < frame.left - 0.5 || box.right > frame.right + 0.5);
      expect(
        outside.map((box) => box.text),
        `text past the list's edges in ${folder}/`,
      ).toEqual([]);
      const overlapping: string[] = [];
      for (const [index, a] of boxes.entries()) {
        for (const b of boxes.slice(index + 1)) {
          const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (across > 1 && down > 1) overlapping.push(`“${a.text}” over “${b.text}”`);
        }
      }
      expect(overlapping, `text drawn over other text in ${folder}/`).toEqual([]);
      const sideways = await page.locator('html').evaluate((html) => html.scrollWidth > html.clientWidth);
      expect(sideways, 'the page scrolls sideways').toBe(false);
      if (width === 1280) await page.screenshot({ path: join(screenshots, `health-${folder}-1280x800.png`) });
    }
  });
}
