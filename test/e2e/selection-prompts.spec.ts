import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { contextItemsHost } from '../support/context-items-host';
import { sentText, writeNote } from '../support/context-items-vault';

const host = contextItemsHost({ rules: false, reply: 'It says each note holds one idea.' });

test.beforeEach(() => {
  const prompt = (name: string, frontmatter: string, body: string) =>
    writeNote(host.workspace.vault, `_kasten/prompts/${name}.md`, `---\n${frontmatter}\n---\n${body}\n`);
  prompt(
    'Explain',
    'name: Explain\ndescription: Explain the selected passage',
    'Explain this: {{selection}}',
  );
  prompt('Summarize', 'name: Summarize\ndescription: Summarize the open note', 'Summarize {{note}}.');
});

test('the selection bar offers the saved prompts that use {{selection}}, and one runs on the passage', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.note('Atomic notes').click();
  await expect(app.viewerTitle()).toHaveText('Atomic notes');
  // At the paragraph's start: its end holds a link, which a click would follow.
  await app.viewer
    .locator('article p', { hasText: 'One idea per note' })
    .click({ clickCount: 3, position: { x: 4, y: 4 } });
  const bar = page.getByTestId('selection-bar');
  await expect(bar).toBeVisible();
  // Only the prompt that uses the selection is offered; the one about the whole note is not.
  await expect(bar.getByTestId('selection-prompt')).toHaveText(['/Explain']);

  await bar.getByRole('button', { name: '/Explain' }).click();
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  const question = app.chat.getByTestId('user-message');
  await expect(question).toContainText('Explain this: One idea per note');
  await expect(question.getByTestId('prompt-origin')).toContainText('From the prompt /Explain');
  expect(sentText(host.model.chatRequests.at(-1)!)).toContain('Explain this: One idea per note');
});
