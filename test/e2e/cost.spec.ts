import { expect, test } from '@playwright/test';
import { AppPage, askAndWait } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  // Priced as OpenRouter lists prices: $2.50 in, $1.25 cached, $10 out per million tokens.
  const pricing = { prompt: '0.0000025', completion: '0.00001', input_cache_read: '0.00000125' };
  model = await startScriptedModelServer({ models: [{ id: 'scripted-model', pricing }] });
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

test('a priced model: Context used gives the answer’s tokens and cost, the header the chat’s; a price edited in Settings prices the next answer', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  // Two calls: 1,000 in and 20 out, then 2,000 in (1,500 cached) and 100 out: $0.006825 in all.
  model.script([
    {
      toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }],
      usage: { promptTokens: 1_000, completionTokens: 20, cachedTokens: 0 },
    },
    { text: 'Links matter [1].', usage: { promptTokens: 2_000, completionTokens: 100, cachedTokens: 1_500 } },
  ]);
  await askAndWait(app, 'What about links?');
  const first = app.chat.getByTestId('assistant-message').first();
  await first.getByTestId('context-used-button').click();
  const used = first.getByTestId('context-used');
  await expect(used.getByTestId('context-used-tokens')).toHaveText(
    '3,000 tokens in (1,500 from the cache), 120 out, over 2 requests',
  );
  await expect(used.getByTestId('context-used-cost')).toContainText('$0.0068 at the server’s price');
  await expect(used.getByTestId('context-used-cost')).toContainText('$2.50 in · $1.25 cached · $10.00 out');
  await expect(app.chat.getByTestId('chat-cost')).toContainText('$0.0068');
  await page.keyboard.press('Escape');

  // The user's price: $5 in, $0.50 cached, $20 out.
  await app.statusBar.getByTestId('model-status').click();
  const row = page.getByTestId('settings').getByTestId('price-row').filter({ hasText: 'scripted-model' });
  await expect(row.getByTestId('price-source')).toHaveText('the server’s price');
  await expect(
    row.getByRole('textbox', { name: 'scripted-model: input price per million tokens' }),
  ).toHaveValue('2.5');
  await row.getByRole('textbox', { name: 'scripted-model: input price per million tokens' }).fill('5');
  await row
    .getByRole('textbox', { name: 'scripted-model: cached input price per million tokens' })
    .fill('0.5');
  await row.getByRole('textbox', { name: 'scripted-model: output price per million tokens' }).fill('abc');
  await row.getByRole('button', { name: 'Save price' }).click();
  await expect(row.getByRole('alert')).toHaveText('The output price must be a number.');
  await row.getByRole('textbox', { name: 'scripted-model: output price per million tokens' }).fill('20');
  await row.getByRole('button', { name: 'Save price' }).click();
  await expect(row.getByTestId('price-source')).toHaveText('your price');
  await expect(row.getByRole('button', { name: 'Reset price' })).toBeVisible();
  await readmeScreenshot(page, 'cost');
  await page.getByRole('button', { name: 'Close settings' }).click();

  // 400 uncached at $5, 1,400 cached at $0.50, 200 out at $20: $0.0067.
  model.script([
    { text: 'Yes.', usage: { promptTokens: 1_800, completionTokens: 200, cachedTokens: 1_400 } },
  ]);
  await askAndWait(app, 'And tags?');
  const second = app.chat.getByTestId('assistant-message').last();
  await second.getByTestId('context-used-button').click();
  await expect(second.getByTestId('context-used-cost')).toContainText('$0.0067 at your price');
  await expect(app.chat.getByTestId('chat-cost')).toContainText('$0.0135');
  await readmeScreenshot(page, 'cost-answer');
  await page.keyboard.press('Escape');
  // The first answer keeps the price it was written at.
  await first.getByTestId('context-used-button').click();
  await expect(first.getByTestId('context-used-cost')).toContainText('$0.0068 at the server’s price');
});
