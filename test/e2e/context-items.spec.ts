import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { sentText, writeRules } from '../support/context-items-vault';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;
const errors: Error[] = [];

test.use({ viewport: { width: 1280, height: 800 } });

test.beforeEach(async ({ page }) => {
  workspace = tempWorkspace('chat');
  writeRules(workspace.vault);
  model = await startScriptedModelServer();
  model.script(() => ({ text: 'Fine.' }));
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: scriptedModelArgs(model.url),
  });
  errors.length = 0;
  page.on('pageerror', (error) => errors.push(error));
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
  expect(errors).toEqual([]);
});

async function ask(app: AppPage, text: string) {
  const answers = app.chat.getByTestId('assistant-message');
  const before = await answers.count();
  await app.composer.fill(text);
  await app.composer.press('Enter');
  await expect(answers).toHaveCount(before + 1);
  await expect(answers.last()).toHaveAttribute('data-status', 'complete');
}

test('the Context tab lists the rules with their modes and a broken rule’s warning, and the tools by source', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
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
  await expect(panel.getByTestId('pinned-section')).toContainText('Pin a note');
  await expect(panel.getByTestId('files-section')).toContainText('Drop files on the message box');
  await page.screenshot({ path: 'test-results/context-items/panel-new-chat.png' });
  await panel.getByTestId('prompt-section').scrollIntoViewIfNeeded();
  await expect(panel.getByTestId('agent-prompt')).toContainText('Once the chat has started');
  await page.screenshot({ path: 'test-results/context-items/panel-new-chat-end.png' });
});

test('a note pinned from a reference card by keyboard, and one from the viewer, go into the next request; unpinning takes one out', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'What does [[Gardening]] say?');

  // The card opens the note; the pin beside it is a target of its own, reached with Tab.
  const card = app.references.getByTestId('reference').filter({ hasText: 'Gardening.md' });
  await card
    .getByRole('button', { name: /Gardening/ })
    .first()
    .focus();
  await page.keyboard.press('Tab');
  const pin = card.getByRole('button', { name: 'Pin “Gardening” to this chat' });
  await expect(pin).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pin).toHaveAttribute('aria-pressed', 'true');
  await expect(app.viewer).toBeHidden();

  await app.note('Atomic notes').click();
  const viewerPin = app.viewer.getByRole('button', { name: 'Pin “Atomic notes” to this chat' });
  await viewerPin.click();
  await expect(viewerPin).toHaveAttribute('aria-pressed', 'true');

  await app.showTab('Context');
  const pinned = app.chatContext.getByTestId('pinned-item');
  await expect(pinned).toHaveText([/Gardening.*Gardening\.md.*\d+ tokens/, /Atomic notes.*\d+ tokens/]);
  await expect(page.getByTestId('context-count')).toHaveText('2');
  await page.screenshot({ path: 'test-results/context-items/panel-pinned.png' });

  await ask(app, 'Which plants need sun?');
  const used = app.chat.getByTestId('assistant-message').last();
  await used.getByTestId('context-used-button').click();
  await expect(
    used.getByTestId('context-group').filter({ hasText: 'Pinned notes' }).getByTestId('context-item'),
  ).toHaveText([/Gardening/, /Atomic notes/]);

  await pinned.filter({ hasText: 'Gardening' }).getByRole('button', { name: 'Unpin “Gardening”' }).click();
  await expect(pinned).toHaveText([/Atomic notes/]);
  await ask(app, 'And which need water?');
  const next = app.chat.getByTestId('assistant-message').last();
  await next.getByTestId('context-used-button').click();
  await expect(
    next.getByTestId('context-group').filter({ hasText: 'Pinned notes' }).getByTestId('context-item'),
  ).toHaveText([/Atomic notes/]);

  // The card is still one target: a click on it opens the note.
  await app.viewer.getByRole('button', { name: 'Close note' }).click();
  await app.showTab('References');
  await app.references.getByRole('tab', { name: 'Session' }).click();
  await app.references.getByTestId('reference').filter({ hasText: 'Gardening.md' }).click();
  await expect(app.viewerTitle()).toHaveText('Gardening');
});

test('@ in a new chat offers rules, tools and notes as typed; the chosen rule goes with the first message', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
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
  const sent = sentText(model.chatRequests.at(-1)!);
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
  await page.goto(server.url);
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
});

test('at 1024×700 the Context tab opens in the drawer, and a manual rule switched on there goes with the first message', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.chat.getByRole('button', { name: 'Show the references' }).click();
  const drawer = page.getByTestId('references-drawer');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('tab', { name: /^Context/ }).click();
  const rule = drawer.getByTestId('rule-item').filter({ hasText: 'Pirate voice' });
  await rule.getByRole('switch').check();
  await expect(rule).toContainText('in this chat');
  await expect(page.getByTestId('context-count')).toHaveText('1');
  await page.screenshot({ path: 'test-results/context-items/drawer-1024.png' });
  // Nothing in the drawer reaches past its edge.
  const overflow = await drawer.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.keyboard.press('Escape');
  await ask(app, 'Tell me about compost.');
  expect(sentText(model.chatRequests.at(-1)!)).toContain('MANUAL-RULE');
});

test('a pinned note renamed on disk is followed and says where it was; a deleted one shows as gone', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'Hello.');
  await app.composer.pressSequentially('@Garden');
  await expect(page.getByRole('listbox', { name: 'Add to this chat' }).getByRole('option')).toHaveText([
    /Gardening advice/,
    /Gardening/,
  ]);
  await app.composer.press('ArrowDown');
  await app.composer.press('Enter');
  await expect(page.getByTestId('composer-notice')).toHaveText('Pinned “Gardening” to this chat.');
  await app.composer.pressSequentially('@Atom');
  await app.composer.press('Enter');
  await expect(page.getByTestId('composer-notice')).toHaveText('Pinned “Atomic notes” to this chat.');

  await app.showTab('Context');
  const pinned = app.chatContext.getByTestId('pinned-item');
  await expect(pinned).toHaveCount(2);
  rmSync(join(workspace.vault, 'Atomic notes.md'));
  await expect(pinned.filter({ hasText: 'Atomic notes' })).toHaveAttribute('data-state', 'gone');
  await expect(pinned.filter({ hasText: 'Atomic notes' }).getByTestId('pinned-state')).toContainText('gone');
  renameSync(join(workspace.vault, 'Gardening.md'), join(workspace.vault, 'Garden plans.md'));
  await expect(pinned.filter({ hasText: 'Garden plans' }).getByTestId('pinned-state')).toHaveText(
    'moved from Gardening.md',
  );
  await page.screenshot({ path: 'test-results/context-items/panel-moved-gone.png' });
});
