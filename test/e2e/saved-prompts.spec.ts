import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { contextItemsHost } from '../support/context-items-host';
import { sentText, writeNote } from '../support/context-items-vault';
import { readmeScreenshot } from '../support/readme-screenshot';

const host = contextItemsHost({ rules: false, reply: 'A permanent note: one idea per note.' });

test.use({ viewport: { width: 1280, height: 800 } });

test.beforeEach(() => {
  const prompt = (name: string, frontmatter: string, body: string) =>
    writeNote(host.workspace.vault, `_kasten/prompts/${name}.md`, `---\n${frontmatter}\n---\n${body}\n`);
  prompt(
    'Summarize',
    'name: Summarize\ndescription: Turn the open note into a permanent note',
    'Summarize {{note}} into a permanent note titled after “{{title}}”.',
  );
  prompt(
    'Contradictions',
    'name: Find contradictions\ndescription: Notes that disagree with this one',
    'Which notes contradict {{note}}?',
  );
  prompt('Explain', 'name: Explain\ndescription: Explain the selected passage', 'Explain: {{selection}}');
  prompt('Broken', 'name: [Broken', 'Text {{note}}');
});

test('/ lists the saved prompts and /compact, filters as typed, and runs one on the open note', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.note('Atomic notes').click();
  await expect(app.viewerTitle()).toHaveText('Atomic notes');

  // A / in the middle of a sentence is text, not a command.
  await app.composer.pressSequentially('and/or');
  const list = page.getByRole('listbox', { name: 'Commands and saved prompts' });
  await expect(list).toBeHidden();
  await app.composer.fill('');

  await app.composer.pressSequentially('/');
  const rows = list.getByRole('option');
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ hasText: '/Summarize' })).toContainText(
    'Turn the open note into a permanent note',
  );
  await expect(rows.filter({ hasText: '/compact' })).toContainText('Summarize the older messages');
  // A prompt whose frontmatter cannot be read is listed with its warning.
  await expect(rows.filter({ hasText: '/Broken' })).toContainText('not valid YAML');
  await readmeScreenshot(page, 'saved-prompts');

  await app.composer.pressSequentially('sum');
  await expect(rows).toHaveText([/\/Summarize/]);
  await app.composer.press('Enter');
  await expect(app.composer).toHaveValue('/Summarize ');
  await expect(list).toBeHidden();

  await app.composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  const question = app.chat.getByTestId('user-message');
  await expect(question).toContainText('into a permanent note titled after “Atomic notes”');
  await expect(question.getByTestId('prompt-origin')).toContainText('From the prompt /Summarize');
  const sent = sentText(host.model.chatRequests.at(-1)!);
  expect(sent).toContain('One idea per note, so that links point at exactly one thing.');

  await answer.getByTestId('context-used-button').click();
  const used = answer.getByTestId('context-used');
  await expect(used.getByTestId('context-used-prompt')).toContainText('{{title}}');
  const note = used.getByTestId('context-item').filter({ hasText: '{{note}} Atomic notes' });
  await expect(note).toHaveAttribute('data-kind', 'pinned');
  await page.screenshot({ path: 'test-results/saved-prompts/context-used.png' });
});

test('arrow keys choose among the prompts, and a prompt that needs a note says so when none is open', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.composer.pressSequentially('/find');
  const rows = page.getByRole('listbox', { name: 'Commands and saved prompts' }).getByRole('option');
  await expect(rows).toHaveText([/\/Find contradictions/]);
  await app.composer.fill('');
  await app.composer.pressSequentially('/');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await app.composer.press('ArrowDown');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await app.composer.press('Escape');
  await expect(rows).toHaveCount(0);
  await app.composer.fill('/Find-contradictions');
  await app.composer.press('Enter');
  await expect(app.chat.getByRole('alert')).toContainText(
    'The prompt “Find contradictions” uses {{note}}: open a note to run it on.',
  );
  expect(host.model.chatRequests).toHaveLength(0);
});
