import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
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
  const result = app.chat.getByRole('status').filter({ hasText: 'Exported to' });
  await expect(result).toContainText('Kasten chats/What do my notes say about links.md');

  const text = readFileSync(
    join(workspace.vault, 'Kasten chats', 'What do my notes say about links.md'),
    'utf8',
  );
  expect(text).toContain('Links between notes matter more than folders ([[Zettelkasten method#Links]]).');

  // The note joins the vault: it opens, its citation link lands on the heading, and nothing is broken.
  await result.getByRole('button').click();
  await expect(app.viewerTitle()).toHaveText('What do my notes say about links');
  await app.viewer.getByRole('paragraph').getByRole('link', { name: 'Zettelkasten method#Links' }).click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  await expect(app.viewer.getByRole('heading', { name: 'Links', exact: true })).toBeInViewport();
  await expect(page.getByTestId('health-button')).toHaveText('✓ Vault healthy');
});
