import { expect, test, type Page } from '@playwright/test';
import { AppPage, askAndWait } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;

function startHost(port = 0): Promise<RunningServer> {
  return startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    // The last --port wins over the helper's `--port 0`.
    args: [...scriptedModelArgs(model.url), '--port', String(port)],
  });
}

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer();
  server = await startHost();
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
});

/** The draft the host keeps for a chat (or the chat not started yet), read as the page reads it. */
function savedDraft(page: Page, sessionId?: string): Promise<string> {
  return page.evaluate(async (id) => {
    const response = await fetch('/api/drafts:read', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(id ? { sessionId: id } : {}),
    });
    const envelope = (await response.json()) as { ok: boolean; value?: { text: string } };
    return envelope.value?.text ?? '';
  }, sessionId);
}

test('a draft survives a reload and a restart of the host on a new address, and is gone once sent', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const draft = 'What did Luhmann keep in his slip box';
  await app.composer.fill(draft);
  await page.reload();
  await expect(app.composer).toHaveValue(draft);

  // The host has it: a new host on a new port, with the same data, gives it back.
  await expect.poll(() => savedDraft(page)).toBe(draft);
  await server.stop();
  server = await startHost();
  await page.goto(server.url);
  await expect(app.composer).toHaveValue(draft);

  model.script([{ text: 'Slips and links.' }]);
  await app.composer.press('End');
  await app.composer.press('?');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  await expect(app.composer).toHaveValue('');
  await expect.poll(() => savedDraft(page)).toBe('');
  await page.reload();
  await expect(app.chat.getByTestId('user-message')).toHaveText(`${draft}?`);
  await expect(app.composer).toHaveValue('');
});

test('each chat keeps its own draft, and what is typed while the host is down is saved once it is back', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  model.script([{ text: 'Slips and links.' }]);
  await askAndWait(app, 'First question?');
  await app.composer.fill('A follow-up about links');
  await app.chat.getByRole('button', { name: 'New chat' }).click();
  await expect(app.composer).toHaveValue('');
  await app.composer.fill('A new topic');
  await app.chat.getByRole('button', { name: 'Chats' }).click();
  await page
    .getByTestId('session-list')
    .getByRole('button', { name: /^First question\?/ })
    .click();
  await expect(app.composer).toHaveValue('A follow-up about links');

  // Down: the page keeps what is typed; the host started again on the same port gets it.
  const port = Number(new URL(server.url).port);
  await server.stop();
  await expect(page.getByTestId('connection-banner')).toBeVisible();
  await app.composer.fill('A follow-up about links, typed while Kasten was away');
  server = await startHost(port);
  await page.goto(server.url);
  await expect(app.composer).toHaveValue('A follow-up about links, typed while Kasten was away');
  const sessionId = await page.evaluate(async () => {
    const response = await fetch('/api/sessions:list', { method: 'POST', body: '' });
    return ((await response.json()) as { value: { id: string }[] }).value[0]!.id;
  });
  await expect
    .poll(() => savedDraft(page, sessionId))
    .toBe('A follow-up about links, typed while Kasten was away');
});
