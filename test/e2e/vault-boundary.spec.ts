import { expect, test } from '@playwright/test';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

// Text outside the vault: none of it may show on the page or reach the model.
const canaryWord = 'CANARY';
const canary = `${canaryWord}-e2e-outside root:x:0:0:root:/root:/bin/bash`;

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
  await server.stop({ keepData: true });
  await model.stop();
  workspace.remove();
});

test('symlinks leading outside, made while the host runs, reach neither search, the viewer nor the model', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.note('Gardening')).toBeVisible();

  const outside = join(workspace.base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'passwd.md'), `# Passwords\n\n${canary}\n`);
  symlinkSync(join(outside, 'passwd.md'), join(workspace.vault, 'late.md'));
  // A note replaced by a symlink with an atomic rename, as a sync tool would write it.
  symlinkSync(join(outside, 'passwd.md'), join(workspace.vault, 'swap.tmp'));
  renameSync(join(workspace.vault, 'swap.tmp'), join(workspace.vault, 'Gardening.md'));

  // The health view says why each was left out; the tree no longer lists them.
  const health = page.getByTestId('health-button');
  await expect(health).toHaveText(/2 issues/);
  await health.click();
  const warnings = page.getByTestId('health-warning');
  await expect(warnings.filter({ hasText: 'late.md' })).toContainText('symlink that leads outside the vault');
  await expect(warnings.filter({ hasText: 'Gardening.md' })).toContainText('leads outside the vault');
  await health.click();
  await expect(app.note('Gardening')).toHaveCount(0);

  const search = page.getByTestId('search-input');
  await search.fill('root');
  await expect(page.getByText('No note matches every word.')).toBeVisible();
  await search.fill('');

  model.script([
    { toolCalls: [{ name: 'search_notes', arguments: { query: 'root passwords bash' } }] },
    { toolCalls: [{ name: 'read_note', arguments: { note: 'late.md' } }] },
    { text: 'There is no such note.' },
  ]);
  const composer = page.getByTestId('composer');
  await composer.fill('What does [[late]] say?');
  await composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer).toContainText('There is no such note.');

  expect(JSON.stringify(model.requests.map((request) => request.body))).not.toContain(canaryWord);
  expect(await page.content()).not.toContain(canaryWord);
});
