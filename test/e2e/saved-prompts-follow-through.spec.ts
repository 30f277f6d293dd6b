import { expect, test, type Locator } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { contextItemsHost } from '../support/context-items-host';
import { sentText, writeNote } from '../support/context-items-vault';

const host = contextItemsHost({ rules: false, reply: 'Done.' });
/** A phrase only the body of "Atomic notes" holds. */
const noteText = 'One idea per note, so that links point at exactly one thing.';

test.beforeEach(() => {
  const prompt = (name: string, frontmatter: string, body: string) =>
    writeNote(host.workspace.vault, `_kasten/prompts/${name}.md`, `---\n${frontmatter}\n---\n${body}\n`);
  prompt('Summarize', 'name: Summarize', 'Summarize {{note}} in one line.');
  prompt('Deep', 'name: Deep\nmodel: big-model', 'Think hard about {{title}}.');
  prompt('Ghost', 'name: Ghost\nmodel: ghost-model', 'Who answers this?');
  prompt('Ruled', 'name: Ruled\ninclude:\n  rules: [No such rule]', 'Follow the rules.');
});

async function meterTokens(meter: Locator): Promise<number> {
  const match = /: ([\d,]+) of ([\d,]+) tokens/.exec((await meter.getAttribute('title')) ?? '');
  return match ? Number(match[1]!.replaceAll(',', '')) : Number.NaN;
}

test('the / list warns beforehand of a model the server does not offer and of a rule that does not exist', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.composer.pressSequentially('/');
  const rows = page.getByRole('listbox', { name: 'Commands and saved prompts' }).getByRole('option');
  const ghost = rows.filter({ hasText: '/Ghost' });
  await expect(ghost).toContainText('does not run');
  await expect(ghost).toContainText('asks for the model “ghost-model”');
  await expect(ghost).toContainText('it offers scripted-model');
  await expect(rows.filter({ hasText: '/Ruled' })).toContainText('There is no rule “No such rule”');
  await expect(rows.filter({ hasText: '/Summarize' })).not.toContainText('warning');
});

test('while /Summarize is typed the meter counts the open note it brings, and Retry sends the note again', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.note('Atomic notes').click();
  await expect(app.viewerTitle()).toHaveText('Atomic notes');
  const meter = app.contextMeter;

  // The same characters, once calling no prompt and once calling Summarize on the open note.
  await app.composer.fill('/Summarizx');
  await expect.poll(() => meterTokens(meter)).toBeGreaterThan(0);
  const typed = await meterTokens(meter);
  await app.composer.fill('/Summarize');
  await expect.poll(() => meterTokens(meter)).toBeGreaterThan(typed + 25);

  // The answer fails (the call and its two automatic retries); Retry sends the prompt's note again.
  host.model.script((_request, index) => (index < 3 ? { fault: 'status', status: 500 } : { text: 'Done.' }));
  await app.composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message').last();
  await expect(answer).toHaveAttribute('data-status', 'error');
  await answer.getByRole('button', { name: 'Retry' }).click();
  await expect(app.chat.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'complete');
  expect(sentText(host.model.chatRequests.at(-1)!)).toContain(noteText);
});

test('a prompt with model: is answered by that model, and its message says so', async ({ page }) => {
  host.model.setModels([{ id: 'scripted-model' }, { id: 'big-model' }]);
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.note('Atomic notes').click();
  await expect(app.viewerTitle()).toHaveText('Atomic notes');
  await app.composer.fill('/Deep');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'complete');
  expect(host.model.chatRequests.at(-1)!.model).toBe('big-model');
  await expect(app.chat.getByTestId('prompt-origin')).toContainText(
    'From the prompt /Deep — answered by big-model',
  );
  await app.composer.fill('And the chat goes on?');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveCount(2);
  await expect(app.chat.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'complete');
  expect(host.model.chatRequests.at(-1)!.model).toBe('scripted-model');
});
