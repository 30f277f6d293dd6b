import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
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

/** Starts `kasten serve` again on the same data, naming the key and its server on the command line. */
async function serveWithKeyFlags(): Promise<void> {
  await server.stop({ keepData: true });
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    env: { KASTEN_E2E_API_KEY: secret },
    args: ['--base-url', `${model.url}/v1`, '--api-key-env', 'KASTEN_E2E_API_KEY'],
  });
}

const browserRefusal = 'Only someone at this machine can let $KASTEN_E2E_API_KEY go to';

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
  // Cleared: a note linked in the message being written is in use, and would be summarized once a
  // model is chosen.
  await composer.fill('');
  await app.chat.getByRole('button', { name: 'Open Settings' }).click();

  const settings = page.getByTestId('settings');
  const baseUrl = settings.getByRole('textbox', { name: 'Base URL' });
  const diagnosis = settings.getByTestId('diagnosis');
  const testConnection = settings.getByRole('button', { name: 'Test connection' });
  // A fresh install talks to Ollama's native API; this server is an OpenAI-compatible one.
  const provider = settings.getByRole('combobox', { name: 'Provider' });
  await expect(provider).toHaveValue('ollama');
  await provider.selectOption('openai-compatible');
  await baseUrl.fill(`${model.url}/v1`);
  await testConnection.click();
  await expect(diagnosis).toContainText('asks for an API key (401)');
  await expect(settings.getByTestId('models-error')).toBeVisible();

  await settings.getByRole('textbox', { name: 'Key from environment variable' }).fill('KASTEN_E2E_API_KEY');
  await testConnection.click();
  // The browser address cannot send a key to a server: that is said, and nothing carries the key.
  await expect(diagnosis).toContainText(`${browserRefusal} ${model.url}/v1`);
  await expect(diagnosis).toContainText('--api-key-env KASTEN_E2E_API_KEY');
  expect(model.requests.some((request) => String(request.headers.authorization).includes(secret))).toBe(
    false,
  );
  // Named on the command line with its server, the key goes there.
  await serveWithKeyFlags();
  await page.goto(server.url);
  await app.statusBar.getByTestId('model-status').click();
  await expect(baseUrl).toHaveValue(`${model.url}/v1`);
  await testConnection.click();
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

  // The key given at launch does not follow the settings to another server.
  await baseUrl.fill('http://127.0.0.1:9/v1');
  await testConnection.click();
  await expect(diagnosis).toContainText(`${browserRefusal} http://127.0.0.1:9/v1`);
  await expect(diagnosis).toHaveClass(/diagnosis-problem/);

  await baseUrl.fill(`${model.url}/v1`);
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings.getByTestId('context-window')).toHaveText(
    "32,768 tokens, from the provider's model list. Leave empty to use the server's own figure.",
  );
  await expect(settings.getByRole('region', { name: 'API key' })).toContainText('Using $KASTEN_E2E_API_KEY');
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await expect(app.statusBar.getByTestId('model-status')).toHaveText('scripted-model · 32k context');

  // With a local model chosen, a note is summarized when it is shown; the whole vault only when asked,
  // having said what it takes.
  expect(model.chatRequests).toHaveLength(0);
  await app.note('Gardening').click();
  await expect.poll(() => model.chatRequests.length).toBe(1);
  await app.statusBar.getByTestId('model-status').click();
  await expect(settings.getByTestId('summary-progress')).toHaveText('Summarized 1 of 1');
  await settings.getByRole('button', { name: 'Summarize the whole vault…' }).click();
  await expect(settings.getByTestId('summary-estimate')).toContainText(
    '2 notes have no summary from scripted-model yet (1 has one). That is 2 model calls: about ',
  );
  await expect(settings.getByTestId('summary-estimate')).toContainText('a server on this machine: no charge');
  expect(model.chatRequests).toHaveLength(1);
  await settings.getByRole('button', { name: 'Start: 2 notes' }).click();
  await expect.poll(() => model.chatRequests.length).toBe(3);
  await expect(settings.getByTestId('summary-progress')).toHaveText('Summarized 2 of 2');
  await expect(settings.getByTestId('summary-estimate')).toBeHidden();
  await testConnection.click();
  await expect(diagnosis).toContainText('✓ Connected');
  await readmeScreenshot(page, 'settings');

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
  await settings.getByRole('combobox', { name: 'Provider' }).selectOption('openai-compatible');
  await settings.getByRole('textbox', { name: 'Base URL' }).fill(`${model.url}/v1`);
  const keyVariable = settings.getByRole('textbox', { name: 'Key from environment variable' });
  await keyVariable.fill('KASTEN_E2E_API_KEY');
  // The list cannot be fetched before the key may go to this server: the model is a text field.
  await expect(settings.getByTestId('models-error')).toContainText(browserRefusal);
  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('scripted-model');
  await settings.getByRole('spinbutton', { name: 'Context window' }).fill('16000');
  await settings.getByRole('checkbox', { name: 'Summarize notes as they are used' }).uncheck();
  const save = settings.getByRole('button', { name: 'Save', exact: true });
  // Refused from the browser, nothing is saved; without the key, the settings are.
  await save.click();
  await expect(settings.getByRole('alert').filter({ hasText: browserRefusal })).toBeVisible();
  await expect(settings.getByTestId('context-window')).not.toContainText('your setting');
  await keyVariable.fill('');
  await save.click();
  await expect(settings.getByTestId('context-window')).toContainText('16,000 tokens, from your setting');

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
    settings.getByRole('checkbox', { name: 'Summarize notes as they are used' }),
  ).not.toBeChecked();
  expect(model.chatRequests).toHaveLength(0);
});

test('a summary model chosen from the listed models writes the note summaries and is kept after a reload', async ({
  page,
}) => {
  const app = new AppPage(page);
  await serveWithKeyFlags();
  await page.goto(server.url);
  await app.statusBar.getByTestId('model-status').click();
  const settings = page.getByTestId('settings');
  const summaryNote = settings.getByTestId('summary-model');
  await expect(summaryNote).toHaveText('No model is chosen to write summaries.');
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(settings.getByTestId('diagnosis')).toContainText('no model is chosen');
  await settings.getByLabel('Model', { exact: true }).selectOption('scripted-model');

  const writer = settings.getByRole('combobox', { name: 'Summaries written by' });
  await expect(writer.locator('option')).toHaveText(['the chat model', 'other-model', 'scripted-model']);
  await expect(writer).toHaveValue('');
  await writer.selectOption('other-model');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings.getByText('Saved.')).toBeVisible();
  await expect(summaryNote).toHaveText(
    'Summaries of notes and of compacted chats are written by other-model.',
  );

  // Summaries as notes are used are on for a server on this machine: a note shown goes to the summary model.
  expect(model.chatRequests).toHaveLength(0);
  await page.keyboard.press('Escape');
  await app.note('Gardening').click();
  await expect.poll(() => model.chatRequests.length).toBe(1);
  expect(model.chatRequests.map((request) => request.model)).toEqual(['other-model']);

  await page.reload();
  await app.statusBar.getByTestId('model-status').click();
  await expect(writer).toHaveValue('other-model');
  await expect(summaryNote).toHaveText(
    'Summaries of notes and of compacted chats are written by other-model.',
  );
  await writer.selectOption('');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(summaryNote).toHaveText(
    'Summaries of notes and of compacted chats are written by scripted-model, the chat model.',
  );
});

test("the window says where it came from, and Ollama's OpenAI-compatible API leads to the native one", async ({
  page,
}) => {
  const ollama = await startScriptedModelServer({
    ollamaVersion: '0.12.6',
    models: [{ id: 'llama3.1:8b', contextLength: 131_072 }],
  });
  try {
    const app = new AppPage(page);
    await page.goto(server.url);
    await app.statusBar.getByTestId('model-status').click();
    const settings = page.getByTestId('settings');
    const provider = settings.getByRole('combobox', { name: 'Provider' });
    const baseUrl = settings.getByRole('textbox', { name: 'Base URL' });
    const save = settings.getByRole('button', { name: 'Save', exact: true });
    const window = settings.getByTestId('context-window');
    await settings.getByRole('checkbox', { name: 'Summarize notes as they are used' }).uncheck();
    await provider.selectOption('openai-compatible');
    await baseUrl.fill(`${ollama.url}/v1`);
    const modelField = settings.getByLabel('Model', { exact: true });
    await expect(modelField.locator('option', { hasText: 'llama3.1:8b' })).toHaveCount(1);
    await modelField.selectOption('llama3.1:8b');
    await save.click();
    // Not the 131,072 the model was trained for: the 4,096 Ollama runs it with over /v1.
    await expect(window).toHaveText(
      "4,096 tokens, from Ollama's default, which its OpenAI-compatible API cannot change.",
    );
    const advice = settings.getByTestId('context-window-advice');
    await advice.getByRole('button', { name: 'Switch to Ollama (native)' }).click();
    await expect(provider).toHaveValue('ollama');
    await expect(baseUrl).toHaveValue(ollama.url);
    await save.click();
    await expect(window).toHaveText(
      "8,192 tokens, from Kasten's default, set on each request (num_ctx). A larger window needs more memory: set one here.",
    );
    await expect(advice).toBeHidden();

    await settings.getByRole('spinbutton', { name: 'Context window' }).fill('16000');
    await save.click();
    await expect(window).toHaveText(
      '16,000 tokens, from your setting. Kasten sets it on each request (num_ctx).',
    );
    await page.keyboard.press('Escape');
    await expect(app.statusBar.getByTestId('model-status')).toHaveText('llama3.1:8b · 16k context');
  } finally {
    await ollama.stop();
  }
});
