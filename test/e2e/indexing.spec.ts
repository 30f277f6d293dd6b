import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { writeSyntheticVault } from '../support/synthetic-vault';

let server: RunningServer;
let model: ScriptedModelServer | null = null;
let workspace: string;
let vault: string;
let notes: number;

test.beforeEach(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-indexing-'));
  vault = join(workspace, 'vault');
  // Large enough that the first index pass is still running when the page is up.
  notes = writeSyntheticVault(vault, { notes: 8000, seed: 7 }).notes;
});
test.afterEach(async () => {
  await server.stop();
  await model?.stop();
  model = null;
  rmSync(workspace, { recursive: true, force: true });
});

test('a cold index shows its progress and can be cancelled', async ({ page }) => {
  server = await startKastenServer({ vault });
  await page.goto(server.url);
  const progress = page.getByTestId('index-progress');
  await expect(progress.getByRole('progressbar', { name: 'Indexing' })).toBeVisible({ timeout: 30_000 });
  await expect(progress).toContainText(`/ ${notes.toLocaleString('en-US')}`);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Indexing cancelled; it resumes next time.')).toBeVisible();
  await expect(progress).toHaveCount(0);
});

test('during a cold index a block link lands on its block, and a message waits for the index', async ({
  page,
}) => {
  mkdirSync(join(vault, 'zz'));
  const filler = Array.from({ length: 30 }, (_, index) => `Filler paragraph ${index + 1}.`).join('\n\n');
  writeFileSync(
    join(vault, 'zz', 'Waiting target.md'),
    `# Waiting target\n\nRead last of all.\n\n${filler}\n\nThe late block. ^late\n`,
  );
  mkdirSync(join(vault, 'aa'));
  writeFileSync(
    join(vault, 'aa', 'Linking note.md'),
    '# Linking note\n\nSee [[Waiting target#^late|the late block]].\n\n![[Waiting target#^late]]\n',
  );
  model = await startScriptedModelServer();
  model.script([{ text: 'It is the note read last [1].' }]);
  server = await startKastenServer({
    vault,
    args: scriptedModelArgs(model.url),
  });
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(page.getByRole('progressbar', { name: 'Indexing' })).toBeVisible({ timeout: 30_000 });

  // The index has not read the target yet: the link is not taken for broken, the embed and the link
  // find the block in the note's own text.
  await page.setViewportSize({ width: 1280, height: 600 });
  await app.openFolders('aa');
  await app.note('Linking note').click();
  await expect(app.wikilink('the late block')).not.toHaveClass(/wikilink-broken/);
  const embed = app.viewer.getByTestId('note-embed');
  await expect(embed).toContainText('The late block.');
  await expect(embed).not.toContainText('Read last of all.');
  // Still during the cold index: the end of the pass, which reloads the note, did not bring them.
  await expect(page.getByRole('progressbar', { name: 'Indexing' })).toBeVisible({ timeout: 1 });
  await app.wikilink('the late block').click();
  await expect(app.viewerTitle()).toHaveText('Waiting target');
  await expect(app.viewer.getByText('The late block.', { exact: true })).toBeInViewport();
  await expect(app.viewer.getByText('Read last of all.')).not.toBeInViewport();

  const composer = page.getByTestId('composer');
  // `[[` completions read now come from the part of the vault indexed so far.
  await composer.fill('What is [[Wait');
  await composer.fill('What is [[Waiting target]]?');
  await composer.press('Enter');
  await expect(page.getByTestId('composer-waiting')).toBeVisible();

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await expect(page.getByTestId('composer-waiting')).toHaveCount(0);
  const target = app.references.getByTestId('reference').filter({ hasText: 'zz/Waiting target.md' });
  await expect(target.getByTestId('kind-direct')).toBeVisible();
  expect(JSON.stringify(model.chatRequests[0]!.messages)).toContain('Read last of all.');

  // The completions are read again once the index has changed: the last note is offered.
  await composer.fill('[[Waiting t');
  await expect(page.getByRole('listbox', { name: 'Notes' })).toContainText('Waiting target');
});
