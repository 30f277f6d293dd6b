import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer();
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: scriptedModelArgs(model.url),
  });
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
});

test('Export writes the chat to a note whose citation links land on the cited heading, and the health stays clean', async ({
  page,
}) => {
  model.script([
    { toolCalls: [{ name: 'read_note', arguments: { note: 'Zettelkasten method', heading: 'Links' } }] },
    { text: 'Links between notes matter more than folders [1].' },
  ]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(page.getByTestId('health-button')).toHaveText('✓ Vault healthy');
  await app.composer.fill('What do my notes say about links?');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  await app.chat.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export this chat to a note' });
  await expect(dialog.getByRole('textbox', { name: 'Folder in the vault' })).toHaveValue('Kasten chats');
  await dialog.getByRole('button', { name: 'Export to note' }).click();
  const result = app.chat.getByTestId('export-notice');
  await expect(result).toContainText('Exported to');
  await expect(result).toContainText('Kasten chats/What do my notes say about links.md');

  const text = readFileSync(
    join(workspace.vault, 'Kasten chats', 'What do my notes say about links.md'),
    'utf8',
  );
  expect(text).toContain('Links between notes matter more than folders ([[Zettelkasten method#Links]]).');

  // The note joins the vault: it opens, its citation link lands on the heading, and nothing is broken.
  await result.getByRole('button', { name: 'Open' }).click();
  await expect(result).toBeHidden();
  await expect(app.viewerTitle()).toHaveText('What do my notes say about links');
  await app.viewer.getByRole('paragraph').getByRole('link', { name: 'Zettelkasten method#Links' }).click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  await expect(app.viewer.getByRole('heading', { name: 'Links', exact: true })).toBeInViewport();
  await expect(page.getByTestId('health-button')).toHaveText('✓ Vault healthy');
});

/** Whether the page or the element `selector` finds scrolls sideways. */
async function scrollsSideways(page: Page, selector: string): Promise<boolean> {
  const overflow = (element: { scrollWidth: number; clientWidth: number }) =>
    element.scrollWidth > element.clientWidth;
  return (await page.locator('html').evaluate(overflow)) || (await page.locator(selector).evaluate(overflow));
}

test('the export notice wraps a long path inside the chat, and goes when closed or at the next key press', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  model.script([{ text: 'Links matter.' }, { text: 'Folders matter less.' }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.composer.fill('What do my notes say about links?');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  const folder = 'Exports/Conversations about the Zettelkasten method and its many linked notes';
  const exportTo = async () => {
    await app.chat.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export this chat to a note' });
    await dialog.getByRole('textbox', { name: 'Folder in the vault' }).fill(folder);
    await dialog.getByRole('button', { name: 'Export to note' }).click();
  };
  await exportTo();
  const notice = app.chat.getByTestId('export-notice');
  await expect(notice).toContainText(`${folder}/What do my notes say about links.md`);
  expect(await scrollsSideways(page, '.chat-pane')).toBe(false);
  await page.screenshot({ path: 'test-results/export/notice.png' });

  await notice.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toBeHidden();

  // The next thing the user does elsewhere sends it away too.
  await exportTo();
  await expect(notice).toContainText('What do my notes say about links 2.md');
  await app.composer.press('a');
  await expect(notice).toBeHidden();
  await expect(app.composer).toHaveValue('a');
  expect(await scrollsSideways(page, '.chat-pane')).toBe(false);
});
