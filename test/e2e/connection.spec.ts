import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { join } from 'node:path';
import { startWebHost } from '../../src/main/hosts/web';
import { startIndexedApp } from '../support/indexed-app';
import { tempWorkspace } from '../support/temp-vault';

const rendererDir = join(import.meta.dirname, '..', '..', 'out', 'renderer');

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;
const errors: Error[] = [];

function startHost(port = 0): Promise<RunningServer> {
  return startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    // The last --port wins over the helper's `--port 0`.
    args: [...scriptedModelArgs(model.url), '--port', String(port)],
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.beforeEach(async ({ page }) => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer();
  server = await startHost();
  errors.length = 0;
  page.on('pageerror', (error) => errors.push(error));
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
  expect(errors).toEqual([]);
});

test('the host killed mid-answer: the page says so within 2 s, Stop and Send are not live, and a restarted host is named', async ({
  page,
}, testInfo) => {
  const full = 'A long answer, word after word. '.repeat(400);
  model.script([{ text: full, chunkSize: 4, delayMs: 15 }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.composer.fill('Tell me everything.');
  await app.composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toContainText('word after word. A long answer');

  const port = Number(new URL(server.url).port);
  process.kill(server.pid, 'SIGKILL');
  await expect(page.getByTestId('connection-banner')).toContainText('Connection to Kasten lost', {
    timeout: 2000,
  });
  await expect(answer.getByTestId('connection-lost-notice')).toBeVisible();
  await expect(answer).toContainText('word after word');
  const shown = (await answer.locator('.answer').allInnerTexts()).join('');
  const stop = app.chat.getByRole('button', { name: 'Stop' });
  await expect(stop).toBeDisabled();
  await expect(stop).toHaveAttribute('title', /Connection to Kasten lost/);
  await page.screenshot({ path: testInfo.outputPath('connection-lost.png') });
  await expect.poll(() => alive(server.pid)).toBe(false);

  // Back on the same port, but `kasten serve` gives every launch a new token: the page says what to do.
  server = await startHost(port);
  await expect(page.getByTestId('connection-banner')).toContainText('Open the new address', {
    timeout: 15_000,
  });
  await page.screenshot({ path: testInfo.outputPath('connection-restarted.png') });

  // At the new address the chat comes back, its answer kept as far as the host had saved it.
  await page.goto(server.url);
  await expect(page.getByTestId('connection-banner')).toBeHidden();
  await expect(answer).toHaveAttribute('data-status', 'interrupted');
  // What comes back is what the host had saved when it died (a little more or less than the page had
  // shown): the start of the answer, not something else.
  const saved = (await answer.locator('.answer').allInnerTexts()).join('');
  expect(full.startsWith(saved.trim())).toBe(true);
  expect(full.startsWith(shown.trim())).toBe(true);
});

test('the host gone and back at the same address and token: the page reconnects by itself, without a reload', async ({
  page,
}) => {
  // `kasten serve` picks a new token per launch, so this host is the same web host run in the test, where
  // the token can be kept: closing it drops every socket as a dead host does.
  const app = await startIndexedApp(join(workspace.base, 'in-process-data'), workspace.vault, {
    host: 'web',
    model: { provider: 'openai-compatible', baseUrl: `${model.url}/v1`, model: 'scripted-model' },
    backgroundSummaries: false,
  });
  model.script([{ text: 'Tomatoes need sun.' }]);
  let host = await startWebHost({ app, rendererDir });
  try {
    const view = new AppPage(page);
    await page.goto(host.url);
    await expect(view.note('Gardening')).toBeVisible();
    await view.composer.fill('What do tomatoes need?');
    await view.composer.press('Enter');
    await expect(view.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
    const sessionId = (await app.handlers['sessions:list'](undefined))[0]!.id;
    await page.locator('html').evaluate((html) => html.setAttribute('data-same-document', 'yes'));

    await host.close();
    await expect(page.getByTestId('connection-banner')).toContainText('Connection to Kasten lost', {
      timeout: 2000,
    });
    await view.composer.fill('Anyone there?');
    await expect(view.chat.getByRole('button', { name: 'Send' })).toBeDisabled();
    // Changed while the page was away: it reads the chat again once back.
    await app.handlers['sessions:rename']({ id: sessionId, title: 'Renamed while away' });

    host = await startWebHost({ app, rendererDir, port: host.port, token: host.token });
    await expect(page.getByTestId('connection-banner')).toBeHidden({ timeout: 15_000 });
    await expect(view.chat.getByRole('button', { name: 'Send' })).toBeEnabled();
    await expect(view.chat.getByTestId('chat-title')).toHaveText('Renamed while away');
    await expect(page.locator('html')).toHaveAttribute('data-same-document', 'yes');
    // Requests flow again.
    await view.note('Gardening').click();
    await expect(view.viewerTitle()).toHaveText('Gardening');
  } finally {
    await host.close();
    await app.dispose();
  }
});
