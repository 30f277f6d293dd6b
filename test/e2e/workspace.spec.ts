import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { AppPage, askAndWait } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;
const errors: Error[] = [];

test.beforeEach(async ({ page }) => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer();
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: scriptedModelArgs(model.url),
  });
  errors.length = 0;
  page.on('pageerror', (error) => errors.push(error));
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
  expect(errors).toEqual([]);
});

async function askAndOpenNote(app: AppPage) {
  model.script([{ text: 'Links between notes matter more than folders [1]. '.repeat(6) }]);
  await app.composer.fill('What does [[Zettelkasten method]] say about links?');
  await app.composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await answer.getByTestId('citation-chip').first().click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
}

interface Place {
  chatAnchor?: { messageId: number; offset: number } | null;
}

/** What the page keeps to resume the vault, as stored. */
function resumePlace(page: Page): Promise<string | undefined> {
  return page.evaluate(
    () => Object.entries(localStorage).find(([key]) => key.startsWith('kasten.resume.'))?.[1],
  );
}

/** How far `element`'s top is below the top of the view scrolled by `container`. */
async function topInView(container: Locator, element: Locator): Promise<number> {
  const [view, target] = await Promise.all([container.boundingBox(), element.boundingBox()]);
  return (target?.y ?? Number.NaN) - (view?.y ?? Number.NaN);
}

async function width(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((element) => element.getBoundingClientRect().width);
}

for (const { width: innerWidth, height, composer } of [
  { width: 1280, height: 800, composer: 420 },
  { width: 1024, height: 700, composer: 360 },
  { width: 800, height: 600, composer: 360 },
]) {
  test(`at ${innerWidth}×${height} with a note open the composer is at least ${composer} px and nothing scrolls sideways`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: innerWidth, height });
    const app = new AppPage(page);
    await page.goto(server.url);
    await askAndOpenNote(app);
    await expect(app.viewer.getByText('Links between notes matter more than folders')).toBeVisible();
    expect(await width(page, '[data-testid="composer"]')).toBeGreaterThanOrEqual(composer);
    expect(
      await page
        .locator('html')
        .evaluate((html) => html.scrollWidth <= html.ownerDocument.defaultView!.innerWidth),
    ).toBe(true);
    // The title keeps a readable width next to the header's buttons.
    expect(await width(page, '[data-testid="chat-title"]')).toBeGreaterThan(80);
    await page.screenshot({ path: testInfo.outputPath(`workspace-${innerWidth}x${height}.png`) });

    // The tree, opened too, still leaves the chat its room.
    if (innerWidth < 1200) {
      await app.chat.getByRole('button', { name: 'Show the note tree' }).click();
      await expect(app.tree).toBeVisible();
      await app.chat.getByRole('button', { name: 'Show the references' }).click();
      await expect(page.getByTestId('references-drawer')).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`workspace-${innerWidth}x${height}-drawer.png`) });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('references-drawer')).toBeHidden();
      // Too narrow for the tree beside the chat and the note: it came over the chat, and goes the same way.
      if (innerWidth < 900) {
        await expect(page.getByTestId('tree-drawer')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('tree-drawer')).toBeHidden();
      }
      expect(await width(page, '[data-testid="composer"]')).toBeGreaterThanOrEqual(composer);
      expect(
        await page
          .locator('html')
          .evaluate((html) => html.scrollWidth <= html.ownerDocument.defaultView!.innerWidth),
      ).toBe(true);
    }
  });
}

test('a dragged divider keeps its place after a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.tree).toBeVisible();
  const before = await width(page, '.sidebar');
  const handle = page.getByRole('separator', { name: 'Resize the note tree' });
  const box = await handle.boundingBox();
  if (!box) throw new Error('The tree divider is not shown.');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 90, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  const dragged = await width(page, '.sidebar');
  expect(dragged).toBeGreaterThan(before + 60);

  await page.reload();
  await expect(app.tree).toBeVisible();
  expect(Math.abs((await width(page, '.sidebar')) - dragged)).toBeLessThan(3);

  // The keyboard moves it too.
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => width(page, '.sidebar')).toBeLessThan(dragged - 5);
});

test('narrowing the window gives way to the chat, and widening it brings the sidebars back as they were', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.tree).toBeVisible();
  const tree = await width(page, '.sidebar');
  const references = await width(page, '.reference-panel');

  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(app.tree).toBeHidden();
  await expect(app.references).toBeHidden();
  await expect(app.chat.getByRole('button', { name: 'Show the references' })).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(app.tree).toBeVisible();
  await expect(app.references).toBeVisible();
  expect(Math.abs((await width(page, '.sidebar')) - tree)).toBeLessThan(3);
  expect(Math.abs((await width(page, '.reference-panel')) - references)).toBeLessThan(3);
});

test('each sidebar collapses and comes back by its button and its shortcut, and stays so after a reload', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.tree).toBeVisible();
  await expect(app.references).toBeVisible();

  const hideTree = app.chat.getByRole('button', { name: 'Hide the note tree' });
  await expect(hideTree).toHaveAttribute('title', /Ctrl\+\\/);
  await hideTree.click();
  await expect(app.tree).toBeHidden();
  await app.chat.getByRole('button', { name: 'Show the note tree' }).click();
  await expect(app.tree).toBeVisible();
  await page.keyboard.press('Control+Backslash');
  await expect(app.tree).toBeHidden();
  await page.keyboard.press('Control+Backslash');
  await expect(app.tree).toBeVisible();

  const hideReferences = app.chat.getByRole('button', { name: 'Hide the references' });
  await expect(hideReferences).toHaveAttribute('title', /Ctrl\+Shift\+\\/);
  await hideReferences.click();
  await expect(app.references).toBeHidden();
  await app.chat.getByRole('button', { name: 'Show the references' }).click();
  await expect(app.references).toBeVisible();
  await page.keyboard.press('Control+Shift+Backslash');
  await expect(app.references).toBeHidden();

  await page.keyboard.press('Control+Backslash');
  await expect(app.tree).toBeHidden();
  await page.reload();
  await expect(app.chat.getByRole('button', { name: 'Show the note tree' })).toBeVisible();
  await expect(app.tree).toBeHidden();
  await expect(app.references).toBeHidden();
  await page.keyboard.press('Control+Shift+Backslash');
  await expect(app.references).toBeVisible();
  await page.keyboard.press('Control+Backslash');
  await expect(app.tree).toBeVisible();
});

test('a reload brings back the chat and the note that were open, scrolled where they were', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 420 });
  const app = new AppPage(page);
  await page.goto(server.url);
  await askAndOpenNote(app);
  const title = await app.chat.getByTestId('chat-title').innerText();
  expect(title).not.toBe('Untitled chat');
  const body = app.viewer.locator('.note-body');
  await body.evaluate((element) => (element.scrollTop = element.scrollHeight / 3));
  const scrolled = await body.evaluate((element) => element.scrollTop);
  expect(scrolled).toBeGreaterThan(50);
  // The position is written once scrolling pauses.
  await expect.poll(() => resumePlace(page)).toContain('"noteAnchor":{"line":');

  await page.reload();
  await expect(app.chat.getByTestId('chat-title')).toHaveText(title);
  await expect(app.chat.getByTestId('assistant-message')).toContainText('Links between notes matter');
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  await expect.poll(() => body.evaluate((element) => element.scrollTop)).toBeCloseTo(scrolled, -1);

  // Only "New chat" starts a new chat, and that is remembered too; the header says it once.
  await app.chat.getByRole('button', { name: 'New chat' }).click();
  await expect(app.chat.getByTestId('chat-title')).toHaveText('Untitled chat');
  await app.viewer.getByRole('button', { name: 'Close note' }).click();
  await page.reload();
  await expect(app.chat.getByText('Ask your notes')).toBeVisible();
  await expect(app.chat.getByTestId('chat-title')).toHaveText('Untitled chat');
  await expect(app.viewer).toBeHidden();
});

test('a reload shows the heading that was at the top of a long note, and the chat scrolled where it was read', async ({
  page,
}) => {
  const sections = Array.from(
    { length: 20 },
    (_, index) =>
      `## Part ${index + 1}\n\n${`Paragraph of part ${index + 1} about slips, links and drawers. `.repeat(30)}`,
  );
  writeFileSync(join(workspace.vault, 'Long read.md'), `# Long read\n\n${sections.join('\n\n')}\n`);
  await page.setViewportSize({ width: 1280, height: 600 });
  const app = new AppPage(page);
  await page.goto(server.url);
  model.script([
    { text: 'Slips and links, at length. '.repeat(120) },
    { text: 'More about drawers. '.repeat(120) },
  ]);
  await askAndWait(app, 'Tell me about slips.');
  await askAndWait(app, 'And drawers?');
  await app.tree.getByRole('button', { name: 'Long read' }).click();
  await expect(app.viewerTitle()).toHaveText('Long read');

  const body = app.viewer.locator('.note-body');
  const heading = app.viewer.getByRole('heading', { name: 'Part 12', exact: true });
  await heading.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  const messages = app.chat.getByTestId('messages');
  // The second question a little below the top of the chat's view.
  const question = app.chat.getByTestId('user-message').nth(1);
  await question.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await messages.evaluate((element) => (element.scrollTop -= 40));
  const questionTop = await topInView(messages, question);
  const questionId = Number(await question.getAttribute('data-message-id'));
  await expect
    .poll(async () => (JSON.parse((await resumePlace(page)) ?? '{}') as Place).chatAnchor?.messageId)
    .toBe(questionId);
  await expect.poll(() => resumePlace(page)).toMatch(/"noteAnchor":\{"line":\d+,"offset":0\}/);

  // Back in a narrower window, where every line wraps elsewhere: the same places, not the same pixels.
  await page.setViewportSize({ width: 1100, height: 600 });
  await page.reload();
  await expect(app.viewerTitle()).toHaveText('Long read');
  // Within 2 px: the view scrolls by whole device pixels.
  await expect.poll(async () => Math.abs(await topInView(body, heading))).toBeLessThanOrEqual(2);
  await expect
    .poll(async () => Math.abs((await topInView(messages, question)) - questionTop))
    .toBeLessThanOrEqual(2);
  await page.screenshot({ path: 'test-results/workspace/restored-scroll.png' });
});

test('Escape closes the Chats list, the Export popover, vault health, search results, the drawer and settings, and gives focus back', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  model.script([{ text: 'Tomatoes need sun.' }]);
  await app.composer.fill('What do tomatoes need?');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  const chats = app.chat.getByRole('button', { name: 'Chats' });
  await chats.click();
  await expect(page.getByTestId('session-list')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('session-list')).toBeHidden();
  await expect(chats).toBeFocused();

  const exportButton = app.chat.getByRole('button', { name: 'Export' });
  await exportButton.click();
  const popover = page.getByRole('dialog', { name: 'Export this chat to a note' });
  await expect(popover).toBeVisible();
  await app.chat.getByTestId('messages').click();
  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(exportButton).toBeFocused();

  const health = app.statusBar.getByTestId('health-button');
  await health.click();
  await expect(page.getByTestId('health-view')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('health-view')).toBeHidden();
  await expect(health).toBeFocused();

  const search = page.getByTestId('search-input');
  await search.fill('links');
  await expect(page.getByTestId('search-result').first()).toBeVisible();
  await page.getByTestId('search-result').first().focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox', { name: 'Search results' })).toBeHidden();
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');

  const model_ = app.statusBar.getByTestId('model-status');
  await model_.click();
  await expect(page.getByTestId('settings')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings')).toBeHidden();
  await expect(model_).toBeFocused();

  await page.setViewportSize({ width: 1024, height: 700 });
  const showReferences = app.chat.getByRole('button', { name: 'Show the references' });
  await showReferences.click();
  await expect(page.getByTestId('references-drawer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('references-drawer')).toBeHidden();
  await expect(showReferences).toBeFocused();
});
