import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { countingServer } from '../support/counting-model';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer | null = null;
let server: RunningServer;

test.beforeEach(() => {
  workspace = tempWorkspace('chat');
});
test.afterEach(async () => {
  await server.stop();
  await model?.stop();
  model = null;
  workspace.remove();
});

test('the status bar says the model server is down before anything is sent, and clears once it is back', async ({
  page,
}) => {
  // A port where a model server was and is no more.
  const gone = await startScriptedModelServer();
  const port = Number(new URL(gone.url).port);
  await gone.stop();
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: scriptedModelArgs(`http://127.0.0.1:${port}`),
  });
  const app = new AppPage(page);
  await page.goto(server.url);
  const problem = app.statusBar.getByTestId('model-problem');
  await expect(problem).toHaveText('⚠ Model server unreachable');
  await expect(problem).toHaveAttribute('title', /Cannot reach .*127\.0\.0\.1/);

  model = await startScriptedModelServer({ port });
  // Checked again every 10 s while it cannot answer.
  await expect(problem).toBeHidden({ timeout: 20_000 });
  await expect(app.statusBar.getByTestId('model-status')).toContainText('scripted-model');
});

test('a window the server names when it refuses a request is the one the status bar, the meter and Settings show', async ({
  page,
}) => {
  model = await startScriptedModelServer();
  // The server says nothing about its window until it refuses a prompt over 4,096 tokens.
  model.script(countingServer(4096, () => ({ text: 'Noted.' }), { events: [] }));
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: scriptedModelArgs(model.url),
  });
  const app = new AppPage(page);
  await page.goto(server.url);
  const status = app.statusBar.getByTestId('model-status');
  await expect(status).toContainText('8k context');
  await expect(status).toHaveAttribute('title', /from the fallback/);

  await app.composer.fill(`Please consider this: ${'every word of a very long pasted text '.repeat(450)}`);
  await app.composer.press('Enter');
  await expect(status).toContainText('4k context');
  await expect(status).toHaveAttribute('title', /4,096 tokens, named by the server on \d+ \w+/);

  await app.contextMeter.click();
  await expect(app.contextPopover.getByTestId('context-window-origin')).toHaveText(/named by the server on/);
  await page.keyboard.press('Escape');
  await status.click();
  await expect(page.getByTestId('context-window')).toContainText(/4,096 tokens, named by the server on/);
});
