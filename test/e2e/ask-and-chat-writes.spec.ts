import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
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
  await server.stop({ keepData: true });
  await model.stop();
  workspace.remove();
});

/** What the checks read in the page: the specs are typed without the DOM library. */
interface Box {
  top: number;
  bottom: number;
}
interface PassagePage {
  document: {
    getSelection(): { removeAllRanges(): void } | null;
    querySelector(selector: string): { getBoundingClientRect(): Box } | null;
  };
  CSS: {
    highlights: {
      get(name: string): Iterable<{ toString(): string; getBoundingClientRect(): Box }> | undefined;
    };
  };
}

async function ask(app: AppPage, text: string) {
  await app.composer.fill(text);
  await app.composer.press('Enter');
}

/** A control of the chat header, in the row or behind "More chat actions" when the header is narrow. */
async function headerControl(app: AppPage, testId: string): Promise<Locator> {
  const header = app.chat.locator('header');
  const more = header.getByRole('button', { name: 'More chat actions' });
  if (await more.isVisible()) {
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    return app.page.getByRole('dialog', { name: 'More chat actions' }).getByTestId(testId);
  }
  return header.getByTestId(testId);
}

/**
 * Asks for a note the model then creates; resolves with the write card of `answer`, once it shows the
 * note written without asking, as it is on disk.
 */
async function createdWithoutAsking(app: AppPage, answer: Locator, path: string, content: string) {
  model.script([
    { toolCalls: [{ name: 'create_note', arguments: { path, content } }] },
    { text: 'Wrote it down.' },
  ]);
  await ask(app, `Note this down as ${path}.`);
  const card = answer.getByTestId('write-approval');
  await expect(card).toHaveAttribute('data-state', 'approved');
  await expect(card.getByTestId('write-outcome')).toHaveText(
    'Written without asking: this chat allows writes.',
  );
  expect(readFileSync(join(workspace.vault, path), 'utf8')).toBe(content);
  return card;
}

test('a chat set to allow writes in its header writes without a card waiting, shows what it did, and Undo takes it back', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const allowWrites = await headerControl(app, 'allow-writes');
  const vaultSaved = page.waitForResponse((response) => response.url().includes('/api/writes:configure'));
  await allowWrites.check();
  expect((await vaultSaved).ok()).toBe(true);
  model.script([{ text: 'Hello.' }]);
  await ask(app, 'Hi.');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  const choice = await headerControl(app, 'chat-writes');
  await expect(choice).toHaveValue('ask');
  const chatSaved = page.waitForResponse((response) => response.url().includes('/api/writes:setChat'));
  await choice.selectOption('allow');
  expect((await chatSaved).ok()).toBe(true);
  await page.keyboard.press('Escape');

  const answer = app.chat.getByTestId('assistant-message').nth(1);
  const card = await createdWithoutAsking(
    app,
    answer,
    'Mulch.md',
    '# Mulch\n\nStraw keeps the soil moist.\n',
  );
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Undo' }).click();
  await expect(card).toHaveAttribute('data-state', 'undone');
  expect(existsSync(join(workspace.vault, 'Mulch.md'))).toBe(false);

  // The choice stays with the chat: read again after a reload.
  await page.reload();
  await expect(await headerControl(app, 'chat-writes')).toHaveValue('allow');
});

test('a chat not started yet can be set to allow writes: its first answer writes at once', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const vaultSaved = page.waitForResponse((response) => response.url().includes('/api/writes:configure'));
  await (await headerControl(app, 'allow-writes')).check();
  expect((await vaultSaved).ok()).toBe(true);
  const choice = await headerControl(app, 'chat-writes');
  await expect(choice).toBeEnabled();
  await choice.selectOption('allow');
  await page.keyboard.press('Escape');

  const answer = app.chat.getByTestId('assistant-message');
  await createdWithoutAsking(app, answer, 'Compost.md', '# Compost\n\nLeaves rot down in a year.\n');
  await expect(await headerControl(app, 'chat-writes')).toHaveValue('allow');
  await page.keyboard.press('Escape');

  // The next new chat asks again until it is told otherwise.
  await app.chat.getByRole('button', { name: 'New chat' }).click();
  await expect(await headerControl(app, 'chat-writes')).toHaveValue('ask');
});

test('text selected in the note viewer is asked about; the answer cites it and the citation opens the note at the passage', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Zettelkasten method').click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  const bar = page.getByTestId('selection-bar');
  const paragraph = app.viewer.locator('article p', { hasText: 'Paragraph 7 of the history' });
  await paragraph.click({ clickCount: 3 });
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'Ask' }).click();
  const asked = app.chat.getByTestId('asked-passage');
  await expect(asked).toContainText('Zettelkasten method › Origins');
  await expect(asked).toContainText('Paragraph 7 of the history');
  await expect(app.composer).toBeFocused();

  model.script([
    {
      text: 'Luhmann numbered his cards by where they branched [1].',
      // Near Kasten's own count, so no calibration notice above the answer in the README's picture.
      usage: { promptTokens: 780, completionTokens: 20 },
    },
  ]);
  await app.composer.fill('What does this say about numbering?');
  await app.composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(asked).toHaveCount(0);
  await expect(app.chat.getByTestId('sent-passage')).toContainText('Paragraph 7 of the history');
  expect(JSON.stringify(model.chatRequests[0]!.messages)).toContain('Paragraph 7 of the history');
  await expect(app.references.getByTestId('kind-selection')).toBeVisible();

  // Text selected outside a note's body (here, in the chat) shows no bar.
  await app.chat.getByTestId('user-message').locator('.message-text').click({ clickCount: 3 });
  await expect(bar).toBeHidden();
  await page.evaluate(() =>
    (globalThis as unknown as PassagePage).document.getSelection()?.removeAllRanges(),
  );

  await app.note('Gardening').click();
  await expect(app.viewerTitle()).toHaveText('Gardening');
  await answer.getByTestId('citation-chip').click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  const marked = () =>
    page.evaluate(() => {
      const { document, CSS } = globalThis as unknown as PassagePage;
      const [range] = [...(CSS.highlights.get('kasten-passage') ?? [])];
      if (!range) return null;
      const box = range.getBoundingClientRect();
      const body = document.querySelector('.note-body')!.getBoundingClientRect();
      return { text: range.toString(), shown: box.top >= body.top && box.bottom <= body.bottom };
    });
  await expect.poll(marked).toEqual({
    text: expect.stringContaining('Paragraph 7 of the history'),
    shown: true,
  });
  await readmeScreenshot(page, 'ask-selection');
});

test('Undo on the export notice takes the exported note away again', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  model.script([{ text: 'Links matter.' }]);
  await ask(app, 'What do my notes say about links?');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  await app.chat.getByRole('button', { name: 'Export', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Export this chat to a note' })
    .getByRole('button', { name: 'Export to note' })
    .click();
  const notice = app.chat.getByTestId('export-notice');
  const exported = join(workspace.vault, 'Kasten chats', 'What do my notes say about links.md');
  await expect(notice).toContainText('Kasten chats/What do my notes say about links.md');
  expect(existsSync(exported)).toBe(true);

  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(notice.getByTestId('export-notice-text')).toHaveText(
    'Undone: "Kasten chats/What do my notes say about links.md" was removed; it did not exist before.',
  );
  await expect(notice.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  expect(existsSync(exported)).toBe(false);
});
