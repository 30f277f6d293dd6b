import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;
const secret = 'sk-e2e-never-in-the-page';

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer({
    models: [{ id: 'scripted-model', contextLength: 32_768 }, { id: 'other-model' }],
  });
  model.requireApiKey(secret);
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    env: { KASTEN_E2E_API_KEY: secret },
  });
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
});

test('settings list the models, diagnose a bad key, no model and a dead server, and the key never reaches the page', async ({
  page,
}) => {
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.statusBar.getByTestId('model-status')).toHaveText('No model chosen');

  // Asking before a model is chosen says so, keeps the question and leads to the settings.
  const composer = page.getByTestId('composer');
  await composer.fill('What does [[Zettelkasten method]] say?');
  await composer.press('Enter');
  await expect(app.chat.getByRole('alert')).toContainText('No chat model is chosen yet');
  await expect(composer).toHaveValue('What does [[Zettelkasten method]] say?');
  await app.chat.getByRole('button', { name: 'Open Settings' }).click();

  const settings = page.getByTestId('settings');
  const baseUrl = settings.getByRole('textbox', { name: 'Base URL' });
  const diagnosis = settings.getByTestId('diagnosis');
  const testConnection = settings.getByRole('button', { name: 'Test connection' });
  await baseUrl.fill(`${model.url}/v1`);
  await testConnection.click();
  await expect(diagnosis).toContainText('asks for an API key (401)');
  await expect(settings.getByTestId('models-error')).toBeVisible();

  await settings.getByRole('textbox', { name: 'Key from environment variable' }).fill('KASTEN_E2E_API_KEY');
  await testConnection.click();
  // The key goes to a server only once the user says so; until then nothing carries it.
  const confirmation = settings.getByRole('alertdialog', { name: 'Send the key to this server?' });
  await expect(confirmation).toContainText(`$KASTEN_E2E_API_KEY to ${model.url}/v1`);
  expect(model.requests.some((request) => String(request.headers.authorization).includes(secret))).toBe(
    false,
  );
  await confirmation.getByRole('button', { name: 'Send $KASTEN_E2E_API_KEY to this server' }).click();
  await expect(confirmation).toBeHidden();
  await expect(diagnosis).toContainText('no model is chosen');
  const modelField = settings.getByLabel('Model', { exact: true });
  await expect(modelField.locator('option')).toHaveText([
    'Choose a model…',
    'other-model',
    'scripted-model — 32,768 tokens',
  ]);
  await modelField.selectOption('scripted-model');
  await testConnection.click();
  await expect(diagnosis).toContainText('✓ Connected');
  await expect(diagnosis).toContainText('scripted-model is available');

  await baseUrl.fill('http://127.0.0.1:9/v1');
  await testConnection.click();
  await expect(confirmation).toContainText('$KASTEN_E2E_API_KEY to http://127.0.0.1:9/v1');
  await confirmation.getByRole('button', { name: 'Send $KASTEN_E2E_API_KEY to this server' }).click();
  await expect(diagnosis).toContainText('127.0.0.1:9');
  await expect(diagnosis).toHaveClass(/diagnosis-problem/);

  await baseUrl.fill(`${model.url}/v1`);
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings.getByTestId('context-window')).toContainText('32,768 tokens, from the provider');
  await expect(settings.getByRole('region', { name: 'API key' })).toContainText('Using $KASTEN_E2E_API_KEY');
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await expect(app.statusBar.getByTestId('model-status')).toHaveText('scripted-model · 32k context');

  // With a local model chosen, every note gets a model summary in the background.
  await expect.poll(() => model.chatRequests.length).toBe(3);
  await app.statusBar.getByTestId('model-status').click();
  await expect(settings.getByTestId('summary-progress')).toHaveText('Summarized 3 of 3');

  expect(frames.length).toBeGreaterThan(0);
  expect(frames.some((frame) => frame.includes(secret))).toBe(false);
});

test('a model override typed in the settings wins over the provider and survives a restart', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.statusBar.getByTestId('model-status').click();
  const settings = page.getByTestId('settings');
  await settings.getByRole('textbox', { name: 'Base URL' }).fill(`${model.url}/v1`);
  await settings.getByRole('textbox', { name: 'Key from environment variable' }).fill('KASTEN_E2E_API_KEY');
  // The list cannot be fetched before the key may go to this server: the model is a text field.
  await expect(settings.getByTestId('models-error')).toContainText('$KASTEN_E2E_API_KEY');
  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('scripted-model');
  await settings.getByRole('spinbutton', { name: 'Context window' }).fill('16000');
  await settings.getByRole('checkbox', { name: 'Summarize notes in the background' }).uncheck();
  const save = settings.getByRole('button', { name: 'Save', exact: true });
  const confirmation = settings.getByRole('alertdialog', { name: 'Send the key to this server?' });
  // Cancelled, nothing is saved; confirmed, the settings are saved with the key going to this server.
  await save.click();
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmation).toBeHidden();
  await expect(settings.getByTestId('context-window')).not.toContainText('your override');
  await save.click();
  await confirmation.getByRole('button', { name: 'Send $KASTEN_E2E_API_KEY to this server' }).click();
  await expect(settings.getByTestId('context-window')).toContainText('16,000 tokens, from your override');
  await expect(settings.getByRole('region', { name: 'API key' })).toContainText('Using $KASTEN_E2E_API_KEY');

  await server.stop({ keepData: true });
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    env: { KASTEN_E2E_API_KEY: secret },
  });
  await page.goto(server.url);
  await expect(app.statusBar.getByTestId('model-status')).toHaveText('scripted-model · 16k context');
  await app.statusBar.getByTestId('model-status').click();
  await expect(
    settings.getByRole('checkbox', { name: 'Summarize notes in the background' }),
  ).not.toBeChecked();
  expect(model.chatRequests).toHaveLength(0);
});
