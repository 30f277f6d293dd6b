import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { snapshot } from '../support/write-approvals';

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

const compost = '# Compost\n\nKitchen scraps and autumn leaves turn into humus.\n';

/** The model creates a note, then appends a line to Gardening, then answers. */
function scriptTwoWrites() {
  model.script([
    { toolCalls: [{ name: 'create_note', arguments: { path: 'Compost.md', content: compost } }] },
    {
      toolCalls: [
        {
          name: 'append_to_note',
          arguments: { note: 'Gardening', heading: 'Gardening', content: 'Basil likes warmth.' },
        },
      ],
    },
    { text: 'Done with the notes.' },
  ]);
}

async function ask(app: AppPage, text: string) {
  await app.composer.fill(text);
  await app.composer.press('Enter');
}

async function openWithWrites(app: AppPage) {
  await app.page.goto(server.url);
  const toggle = app.chat.getByTestId('allow-writes');
  await expect(toggle).not.toBeChecked();
  // The switch moves at once; the host has it once its answer came back, and only then is it sure that
  // the next message is sent with the write tools.
  const saved = app.page.waitForResponse((response) => response.url().includes('/api/writes:configure'));
  await toggle.check();
  await expect(toggle).toBeChecked();
  expect((await saved).ok()).toBe(true);
}

test('each change shows exactly what it would write; Reject leaves the vault byte-identical', async ({
  page,
}) => {
  const app = new AppPage(page);
  await openWithWrites(app);
  const before = snapshot(workspace.vault);
  scriptTwoWrites();
  await ask(app, 'Write down what I know about compost and basil.');

  const cards = app.chat.getByTestId('write-approval');
  const create = cards.nth(0);
  await expect(create).toHaveAttribute('data-state', 'pending');
  await expect(create.getByTestId('write-path')).toHaveText('Compost.md');
  expect(await create.getByTestId('write-content').textContent()).toBe(compost);
  await create.getByRole('button', { name: 'Reject' }).click();
  await expect(create).toHaveAttribute('data-state', 'rejected');
  await expect(create.getByTestId('write-outcome')).toHaveText('Rejected: nothing was written.');

  const append = cards.nth(1);
  await expect(append).toHaveAttribute('data-state', 'pending');
  await expect(append).toContainText('Append to Gardening.md at the end of the section “Gardening”');
  await expect(append.getByTestId('added-line')).toHaveText(['4+', '5+Basil likes warmth.']);
  await expect(append.getByTestId('context-line')).toHaveText([
    '1 # Gardening',
    '2',
    '3 Tomatoes need sun and water.',
  ]);
  await append.getByRole('button', { name: 'Reject' }).click();

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer).toContainText('Done with the notes.');
  expect(snapshot(workspace.vault)).toEqual(before);
  expect(JSON.stringify(model.chatRequests[2]!.messages)).toContain(
    'The user rejected the change; nothing was written.',
  );

  // The decisions are part of the message: a reload shows them.
  await page.reload();
  await app.chat.getByRole('button', { name: 'Chats' }).click();
  await page
    .getByTestId('session-list')
    .getByRole('button', { name: /^Write down what I know/ })
    .click();
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute('data-state', 'rejected');
  await expect(cards.nth(1)).toHaveAttribute('data-state', 'rejected');
});

test('Approve writes the change; the tree and search follow', async ({ page }) => {
  const app = new AppPage(page);
  await openWithWrites(app);
  const gardening = readFileSync(join(workspace.vault, 'Gardening.md'), 'utf8');
  scriptTwoWrites();
  await ask(app, 'Write down what I know about compost and basil.');

  const cards = app.chat.getByTestId('write-approval');
  await cards.nth(0).getByRole('button', { name: 'Approve' }).click();
  await expect(cards.nth(0)).toHaveAttribute('data-state', 'approved');
  await expect(app.note('Compost')).toBeVisible();
  await cards.nth(1).getByRole('button', { name: 'Approve' }).click();
  await expect(cards.nth(1)).toHaveAttribute('data-state', 'approved');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  expect(readFileSync(join(workspace.vault, 'Compost.md'), 'utf8')).toBe(compost);
  expect(readFileSync(join(workspace.vault, 'Gardening.md'), 'utf8')).toBe(
    `${gardening}\nBasil likes warmth.\n`,
  );
  await page.getByTestId('search-input').fill('humus');
  await expect(page.getByTestId('search-result')).toHaveCount(1);
  await expect(page.getByTestId('search-result')).toContainText('Compost');
  await page.getByTestId('search-input').fill('basil');
  await expect(page.getByTestId('search-result')).toContainText('Gardening');
});

test('create_note on an existing path or on ../outside.md is refused as a tool error; nothing changes', async ({
  page,
}) => {
  const app = new AppPage(page);
  await openWithWrites(app);
  const before = snapshot(workspace.vault);
  model.script([
    {
      toolCalls: [
        { name: 'create_note', arguments: { path: 'Gardening.md', content: '# Replaced\n' } },
        { name: 'create_note', arguments: { path: '../outside.md', content: '# Escaped\n' } },
      ],
    },
    { text: 'Neither was created.' },
  ]);
  await ask(app, 'Overwrite Gardening and write outside.');

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer.getByTestId('write-approval')).toHaveCount(0);
  const calls = answer.getByTestId('tool-call');
  await expect(calls).toHaveText([/create_note.*Gardening\.md.*failed/, /create_note.*outside\.md.*failed/]);
  await calls.nth(0).locator('summary').click();
  await expect(calls.nth(0)).toContainText('"Gardening.md" already exists; create_note never overwrites');
  await calls.nth(1).locator('summary').click();
  await expect(calls.nth(1)).toContainText('"../outside.md" points outside the vault');
  expect(snapshot(workspace.vault)).toEqual(before);
  expect(existsSync(join(workspace.base, 'outside.md'))).toBe(false);
});

test('an edit shows its words changed within the section; Approve writes it and Undo takes it back', async ({
  page,
}) => {
  const app = new AppPage(page);
  await openWithWrites(app);
  const gardening = readFileSync(join(workspace.vault, 'Gardening.md'));
  model.script([
    {
      toolCalls: [
        {
          name: 'edit_note',
          arguments: {
            note: 'Gardening',
            passage: 'Tomatoes need sun and water.',
            replacement: 'Tomatoes want full sun and water.',
          },
        },
      ],
      // Near Kasten's own count, so no calibration notice above the card in the README's picture.
      usage: { promptTokens: 1200, completionTokens: 40 },
    },
    { text: 'Edited the sentence.' },
  ]);
  await ask(app, 'Make the tomato sentence stronger.');

  const card = app.chat.getByTestId('write-approval');
  await expect(card).toHaveAttribute('data-state', 'pending');
  await expect(card).toContainText('Edit Gardening.md in the section “Gardening”');
  await expect(card.getByTestId('write-diff')).toHaveText(
    'line 1# Gardening\n\nTomatoes needwant full sun and water.\n',
  );
  await expect(card.getByTestId('removed-text')).toHaveText(['need']);
  await expect(card.getByTestId('added-text')).toHaveText(['want', 'full ']);
  await readmeScreenshot(page, 'edit-diff');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card).toHaveAttribute('data-state', 'approved');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  expect(readFileSync(join(workspace.vault, 'Gardening.md'), 'utf8')).toBe(
    '# Gardening\n\nTomatoes want full sun and water.\n',
  );

  await card.getByRole('button', { name: 'Undo' }).click();
  await expect(card).toHaveAttribute('data-state', 'undone');
  await expect(card.getByTestId('write-outcome')).toHaveText(
    'Undone: the note holds again what it held before the change.',
  );
  await expect(card.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  expect(readFileSync(join(workspace.vault, 'Gardening.md'))).toEqual(gardening);

  // Undone is part of the message: a reload shows it.
  await page.reload();
  await app.chat.getByRole('button', { name: 'Chats' }).click();
  await page
    .getByTestId('session-list')
    .getByRole('button', { name: /^Make the tomato sentence/ })
    .click();
  await expect(card).toHaveAttribute('data-state', 'undone');
});

test('Undo of a change to a note edited since is refused in words, and the edit stays', async ({ page }) => {
  const app = new AppPage(page);
  await openWithWrites(app);
  scriptTwoWrites();
  await ask(app, 'Write down what I know about compost and basil.');
  const cards = app.chat.getByTestId('write-approval');
  await cards.nth(0).getByRole('button', { name: 'Approve' }).click();
  await cards.nth(1).getByRole('button', { name: 'Approve' }).click();
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  const edited = '# Compost\n\nKitchen scraps, autumn leaves and patience.\n';
  writeFileSync(join(workspace.vault, 'Compost.md'), edited);
  await cards.nth(0).getByRole('button', { name: 'Undo' }).click();
  await expect(cards.nth(0).getByTestId('write-error')).toHaveText(
    'Not undone: "Compost.md" was changed after Kasten wrote it, so it was left as it is: undoing would lose those changes.',
  );
  await expect(cards.nth(0)).toHaveAttribute('data-state', 'approved');
  expect(readFileSync(join(workspace.vault, 'Compost.md'), 'utf8')).toBe(edited);
});
