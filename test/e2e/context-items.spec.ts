import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { ask, contextItemsHost } from '../support/context-items-host';
import { sentText } from '../support/context-items-vault';

const host = contextItemsHost();

test.use({ viewport: { width: 1280, height: 800 } });

test('the Context tab lists the rules with their modes and a broken rule’s warning, and the tools by source', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  // The tabs are reached and switched with the keyboard too.
  await page.getByRole('tab', { name: 'References' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /^Context/ })).toBeFocused();
  await expect(page.getByRole('tab', { name: /^Context/ })).toHaveAttribute('aria-selected', 'true');
  const panel = app.chatContext;
  const rules = panel.getByTestId('rule-item');
  await expect(rules).toHaveCount(5);
  const always = rules.filter({ hasText: 'Cite sources' });
  await expect(always.getByTestId('item-include')).toHaveText('always');
  await expect(always.getByRole('switch')).toHaveCount(0);
  const manual = rules.filter({ hasText: 'Pirate voice' });
  await expect(manual.getByTestId('item-include')).toHaveText('manual');
  await expect(manual.getByRole('switch', { name: 'Use “Pirate voice” in this chat' })).not.toBeChecked();
  await expect(rules.filter({ hasText: 'Broken' }).getByTestId('rule-warning')).toContainText(
    'not valid YAML',
  );
  // Tools all offered always have nothing to choose: their group starts folded, and opens.
  const tools = panel.getByTestId('tool-group').filter({ hasText: 'Vault' });
  await expect(tools).toContainText(/Vault\s*5 · [\d,]+ tokens/);
  await tools.getByText('Vault').click();
  await expect(tools.getByTestId('tool-item').filter({ hasText: 'search_notes' })).toContainText('always');
  // The tool that reads web pages is not the vault's: a group of its own, added by hand.
  const web = panel.getByTestId('tool-group').filter({ hasText: 'fetch_url' });
  await expect(web).toContainText(/Web\s*1 · [\d,]+ tokens/);
  await expect(web.getByTestId('tool-item')).toContainText('manual');
  await expect(panel.getByTestId('pinned-section')).toContainText('Pin a note');
  await expect(panel.getByTestId('files-section')).toContainText('Drop files on the message box');
  await page.screenshot({ path: 'test-results/context-items/panel-new-chat.png' });
  await panel.getByTestId('prompt-section').scrollIntoViewIfNeeded();
  // A chat not started yet can have a prompt of its own: it goes with the first message.
  await panel.getByRole('button', { name: 'Write one for this chat' }).click();
  await panel.getByLabel('This chat’s agent prompt').fill('NEW-CHAT-PROMPT: answer in one line.');
  await panel.getByRole('button', { name: 'Save for this chat' }).click();
  await expect(panel.getByTestId('agent-prompt')).toContainText('This chat’s own prompt');
  await page.screenshot({ path: 'test-results/context-items/panel-new-chat-end.png' });
  await ask(app, 'Hello there.');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  expect(sentText(host.model.chatRequests.at(-1)!)).toContain('NEW-CHAT-PROMPT');
  await expect(panel.getByTestId('agent-prompt')).toContainText('NEW-CHAT-PROMPT');
});

test('@ in a new chat offers rules, tools and notes as typed; the chosen rule goes with the first message', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  const suggestions = page.getByRole('listbox', { name: 'Add to this chat' });
  const notice = page.getByTestId('composer-notice');

  // An always rule is in every request already: choosing it adds nothing and says so.
  await app.composer.pressSequentially('Be brief @Cit');
  await expect(suggestions.getByRole('option')).toHaveText([/Cite sources.*always/]);
  await app.composer.press('Enter');
  await expect(notice).toContainText('Nothing to add: the rule “Cite sources” is always included');
  await expect(app.composer).toHaveValue('Be brief');

  await app.composer.pressSequentially(' @pir');
  await expect(suggestions.getByRole('option').first()).toContainText('Pirate voice');
  await app.composer.press('Escape');
  await expect(suggestions).toBeHidden();
  // Escape closes the list for this @; a new @ opens it again.
  await app.composer.pressSequentially('a');
  await expect(suggestions).toBeHidden();
  for (let count = 0; count < 5; count++) await app.composer.press('Backspace');
  await app.composer.pressSequentially('@pir');
  await expect(suggestions.getByRole('option').first()).toContainText('Pirate voice');
  await page.screenshot({ path: 'test-results/context-items/mention-list.png' });
  await app.composer.press('Enter');
  await expect(notice).toHaveText(
    'Added the rule “Pirate voice” to this chat. It goes with your first message.',
  );
  await expect(app.composer).toHaveValue('Be brief');

  await app.showTab('Context');
  const rule = app.chatContext.getByTestId('rule-item').filter({ hasText: 'Pirate voice' });
  await expect(rule.getByRole('switch')).toBeChecked();
  await page.screenshot({ path: 'test-results/context-items/mention-added.png' });

  await app.composer.pressSequentially(', please.');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  const sent = sentText(host.model.chatRequests.at(-1)!);
  expect(sent).toContain('MANUAL-RULE');
  expect(sent).toContain('Be brief, please.');
  expect(sent).not.toContain('@pir');
  // The chat has it now, as main says.
  await expect(rule.getByRole('switch')).toBeChecked();
  await expect(rule).toContainText('in this chat');
});

test('Context used shows an agent rule chosen with its score and one left out with its reason', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await ask(app, 'How do I grow tomatoes with compost in poor soil?');
  const answer = app.chat.getByTestId('assistant-message');
  await answer.getByTestId('context-used-button').click();
  const used = answer.getByTestId('context-used');
  const rules = used.getByTestId('context-group').filter({ hasText: 'Rules' });
  await expect(rules.getByTestId('context-item').filter({ hasText: 'Gardening advice' })).toContainText(
    /agent · 0\.\d\d/,
  );
  await expect(rules.getByTestId('context-item').filter({ hasText: 'Cite sources' })).toContainText('always');
  const left = used.getByTestId('context-dropped').filter({ hasText: 'Knitting tips' });
  await expect(left).toContainText(/rule\s*agent · 0\.\d\d/);
  await expect(left).toContainText(/score 0\.\d\d, .*\(matched by words\)/);
  await answer.getByTestId('context-used').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/context-items/context-used.png' });
  await readmeScreenshot(page, 'context-used-scores');
});
