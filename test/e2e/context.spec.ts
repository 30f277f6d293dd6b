import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { AppPage, askAndWait as ask } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import {
  startScriptedModelServer,
  type ChatRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';
import { readmeScreenshot } from '../support/readme-screenshot';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;

test.use({ viewport: { width: 1280, height: 800 } });

/** About 2,000 words: a long first paragraph (what stands in for the note when it does not fit), then more. */
function longEssay(): string {
  const lead = Array.from(
    { length: 12 },
    (_, index) =>
      `Sentence ${index + 1} of the lead explains how compost, mulch and crop rotation keep the soil alive.`,
  ).join(' ');
  const sections = Array.from({ length: 12 }, (_, section) => {
    const paragraphs = Array.from(
      { length: 8 },
      (_, index) =>
        `Paragraph ${index + 1} of section ${section + 1}: beds of beans, leeks and chard were sown in rows, ` +
        `watered at dawn and thinned after three weeks.`,
    );
    return `## Season ${section + 1}\n\n${paragraphs.join('\n\n')}`;
  });
  return `# Long essay\n\n${lead}\n\n${sections.join('\n\n')}\n`;
}

const summary = [
  '## Goal',
  'Plan the vegetable garden.',
  '## Decisions',
  'Tomatoes go by the south wall.',
  '## Facts',
  '- Tomatoes need sun and water.',
  '## Open questions',
  'None.',
  '## Next steps',
  'Order seeds.',
].join('\n');

function isSummaryRequest(request: ChatRequest): boolean {
  if (request.tools?.length) return false;
  return request.messages.some((message) => JSON.stringify(message.content ?? '').includes('You compact'));
}

/** Answers every chat request with `answer`, and a summarization request with the summary above. */
function scriptAnswers(answer: (index: number) => ScriptedReply) {
  let answers = 0;
  model.script((request) => (isSummaryRequest(request) ? { text: summary } : answer(answers++)));
}

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  writeFileSync(join(workspace.vault, 'Long essay.md'), longEssay());
  model = await startScriptedModelServer({ models: [{ id: 'scripted-model', contextLength: 4096 }] });
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

/** The exact token count the meter's tooltip gives ("scripted-model: 2,934 of 4,096 tokens …"). */
async function meterTokens(meter: Locator): Promise<number> {
  const title = (await meter.getAttribute('title')) ?? '';
  const match = /: ([\d,]+) of ([\d,]+) tokens/.exec(title);
  return match ? Number(match[1]!.replaceAll(',', '')) : Number.NaN;
}

test('the meter counts a linked note as it is typed, and the breakdown shows the next request by part', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const meter = app.contextMeter;
  await expect(meter.getByTestId('context-meter-text')).toHaveText(/^[\d.]+k? \/ 4k$/);
  await expect(meter).toHaveAttribute('title', /scripted-model: [\d,]+ of 4,096 tokens/);
  const empty = await meterTokens(meter);

  // The same words without and with the link: the difference is the note the backend adds.
  await app.composer.fill('What does Long essay say about compost?');
  await expect.poll(() => meterTokens(meter)).toBeGreaterThan(empty);
  const words = await meterTokens(meter);
  await app.composer.fill('What does [[Long essay]] say about compost?');
  // Too long to fit a 4k window whole, the note goes in cut to its head and tail: more than the words alone.
  await expect.poll(() => meterTokens(meter)).toBeGreaterThan(words + 40);
  const linked = await meterTokens(meter);
  await expect(meter).toHaveAttribute('data-level', /^(ok|warn|full)$/);
  await page.screenshot({ path: 'test-results/context/meter.png', clip: statusBarClip(page) });

  await meter.click();
  const popover = app.contextPopover;
  await expect(popover).toBeVisible();
  const parts = popover.getByTestId('context-part');
  await expect(parts.filter({ hasText: 'System prompt' })).toBeVisible();
  await expect(parts.filter({ hasText: 'Current message' })).toBeVisible();
  await expect(parts.filter({ hasText: 'References' })).toBeVisible();
  await expect(popover.getByTestId('context-estimate')).toHaveText(linked.toLocaleString('en-US'));
  await expect(popover.getByTestId('context-draft')).toHaveText(/^[\d,]+ tokens$/);
  const draftTokens = Number(
    (await popover.getByTestId('context-draft').innerText()).split(' ')[0]!.replaceAll(',', ''),
  );
  expect(draftTokens).toBeGreaterThan(linked - words);
  await expect(popover.getByTestId('context-reported')).toHaveText('not reported yet');
  await expect(popover.getByTestId('context-calibration')).toHaveText('uncalibrated');
  await expect(popover.getByTestId('context-compactions')).toHaveText('0');
  // A new chat has no session to set a strategy for or to compact.
  await expect(popover.getByTestId('context-strategy')).toBeDisabled();
  await expect(popover.getByRole('button', { name: 'Compact now' })).toBeDisabled();
  await page.screenshot({ path: 'test-results/context/popover.png' });
  // The README's picture of the meter and its breakdown.
  await readmeScreenshot(page, 'context');

  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(meter).toBeFocused();

  // Clearing the composer goes back to the estimate without a draft, and the breakdown lists no message.
  await app.composer.fill('');
  await expect.poll(() => meterTokens(meter)).toBe(empty);
  await meter.click();
  await expect(popover.getByTestId('context-draft')).toHaveText('nothing typed');
  await expect(parts.filter({ hasText: 'System prompt' })).toBeVisible();
  await expect(parts.filter({ hasText: 'Current message' })).toHaveCount(0);
  await expect(popover.getByTestId('context-estimate')).toHaveText(empty.toLocaleString('en-US'));
});

test('/compact folds the older turns behind a marker that expands to the summary and the originals', async ({
  page,
}) => {
  scriptAnswers((index) => ({
    text: `Answer ${index + 1}: tomatoes need sun, water and a warm wall.`,
    usage: { promptTokens: 900 + index * 60, completionTokens: 20 },
  }));
  const app = new AppPage(page);
  await page.goto(server.url);

  // Nothing to compact in a new chat, and no message is sent for it.
  await app.composer.fill('/compact');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('compact-notice')).toHaveText(/nothing to compact/);
  await expect(app.composer).toHaveValue('');
  expect(model.chatRequests).toHaveLength(0);

  const questions = Array.from({ length: 6 }, (_, index) => `Question ${index + 1} about the garden?`);
  for (const question of questions) await ask(app, question);
  const users = app.chat.getByTestId('user-message');
  await expect(users).toHaveCount(6);

  await app.composer.fill('/compact the tomatoes');
  await app.composer.press('Enter');
  await expect(app.composer).toHaveValue('');
  const notice = app.chat.getByTestId('compact-notice');
  await expect(notice).toHaveText(/^Summarized \d+ earlier messages/);
  const marker = app.chat.getByTestId('compaction-marker');
  await expect(marker).toHaveText(/^\d+ earlier messages summarized$/);
  await expect(marker).toHaveAttribute('aria-expanded', 'false');
  const covered = Number((await marker.innerText()).split(' ')[0]);
  expect(covered).toBeGreaterThanOrEqual(2);
  await expect(users).toHaveCount(6 - covered / 2);
  await expect(users.first()).not.toHaveText(questions[0]!);
  const summarization = model.chatRequests.find(isSummaryRequest);
  expect(JSON.stringify(summarization?.messages)).toContain('the tomatoes');

  await marker.click();
  await expect(marker).toHaveAttribute('aria-expanded', 'true');
  const shownSummary = app.chat.getByTestId('compaction-summary');
  await expect(shownSummary.getByRole('heading', { name: 'Goal' })).toBeVisible();
  await expect(shownSummary).toContainText('Tomatoes go by the south wall.');
  await expect(users).toHaveCount(6);
  await expect(users.first()).toHaveText(questions[0]!);
  await shownSummary.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/context/compaction.png' });
  await readmeScreenshot(page, 'compaction');

  await marker.click();
  await expect(shownSummary).toBeHidden();
  await expect(users).toHaveCount(6 - covered / 2);

  await app.contextMeter.click();
  await expect(app.contextPopover.getByTestId('context-compactions')).toHaveText('1');
  await expect(app.contextPopover.getByTestId('context-reported')).toHaveText(
    /^reported by the server: [\d,]+$/,
  );
  const strategy = app.contextPopover.getByTestId('context-strategy');
  await expect(strategy).toHaveValue('hybrid');
  await strategy.selectOption('discard');
  await app.contextPopover.getByRole('button', { name: 'Compact now' }).click();
  await expect(app.contextPopover.getByTestId('context-compact-result')).not.toBeEmpty();
  await page.keyboard.press('Escape');
  await expect(app.contextPopover).toBeHidden();
  // The strategy is the session's, read back from the main process.
  await page.reload();
  await app.chat.getByRole('button', { name: 'Chats' }).click();
  await page
    .getByTestId('session-list')
    .getByRole('button', { name: /^Question 1 about the garden\?/ })
    .click();
  await expect(app.chat.getByTestId('compaction-marker')).toBeVisible();
  await app.contextMeter.click();
  await expect(app.contextPopover.getByTestId('context-strategy')).toHaveValue('discard');
});

test('/compact keeps the last turn word for word below the marker, even when it is longer than the tail’s share', async ({
  page,
}) => {
  // Each answer alone is more than the 40% of the 4k window the verbatim tail may take.
  scriptAnswers((index) => ({
    text: `Answer ${index + 1}: ${'Luhmann kept his slip box in wooden drawers. '.repeat(180)}`,
    usage: { promptTokens: 1200, completionTokens: 1500 },
  }));
  const app = new AppPage(page);
  await page.goto(server.url);
  // Questions long enough that the scripted summary is smaller than what it replaces.
  const questions = Array.from(
    { length: 3 },
    (_, index) =>
      `Question ${index + 1}: ${'what did Luhmann write on his slips, and why? '.repeat(8).trim()}`,
  );
  for (const question of questions) await ask(app, question);

  await app.composer.fill('/compact keep the Luhmann facts');
  await app.composer.press('Enter');
  const marker = app.chat.getByTestId('compaction-marker');
  await expect(marker).toHaveText(/^\d+ earlier messages summarized$/);
  const users = app.chat.getByTestId('user-message');
  await expect(users.last()).toHaveText(questions[2]!);
  const answers = app.chat.getByTestId('assistant-message');
  await expect(answers.last()).toContainText('Answer 3: Luhmann kept his slip box');
  const rows = await app.chat
    .locator('[data-testid=compaction-marker], [data-testid=user-message], [data-testid=assistant-message]')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-testid')));
  expect(rows.indexOf('compaction-marker')).toBe(0);
  expect(rows.slice(-2)).toEqual(['user-message', 'assistant-message']);
});

test('an answer’s Context used view lists the notes its requests held with their tokens, and opens one', async ({
  page,
}) => {
  model.script([
    {
      toolCalls: [{ name: 'read_note', arguments: { note: 'Atomic notes' } }],
      usage: { promptTokens: 1400, completionTokens: 12 },
    },
    { text: 'Links matter more than folders.', usage: { promptTokens: 1523, completionTokens: 8 } },
  ]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'What does [[Zettelkasten method]] say about links?');

  const answer = app.chat.getByTestId('assistant-message');
  await answer.getByTestId('context-used-button').click();
  const used = answer.getByTestId('context-used');
  await expect(used).toBeVisible();
  // Two model requests: the last is shown, the first can be chosen.
  const request = used.getByRole('combobox', { name: 'Request' });
  await expect(request).toHaveValue('1');
  const note = used.getByTestId('context-item').filter({ hasText: 'Zettelkasten method' });
  await expect(note).toContainText('direct');
  await expect(note.locator('.context-item-tokens')).toHaveText(/^[1-9][\d,]*$/);
  await expect(used.getByTestId('context-used-totals')).toContainText('reported by the server: 1,523');
  await page.screenshot({ path: 'test-results/context/context-used.png' });

  await request.selectOption('0');
  await expect(used.getByTestId('context-used-totals')).toContainText('reported by the server: 1,400');

  await note.getByRole('button', { name: 'Zettelkasten method' }).click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');

  // Escape inside the view closes it and puts focus back on its button.
  await request.focus();
  await page.keyboard.press('Escape');
  await expect(used).toBeHidden();
  await expect(answer.getByTestId('context-used-button')).toBeFocused();
});

test('Context used says why a linked note too long for its share went in cut to its head and tail', async ({
  page,
}) => {
  model.script([{ text: 'Compost first, then mulch.' }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'What does [[Long essay]] say about compost?');

  const answer = app.chat.getByTestId('assistant-message');
  await answer.getByTestId('context-used-button').click();
  const note = answer
    .getByTestId('context-used')
    .getByTestId('context-item')
    .filter({ hasText: 'Long essay' });
  await expect(note.getByTestId('context-item-form')).toHaveText('cut');
  await expect(note.getByTestId('context-item-reason')).toHaveText(
    /^cut to head and tail: [\d,]+ tokens, [\d,]+ available \(the most one item may take\)$/,
  );
  await page.screenshot({ path: 'test-results/context/context-used-reason.png' });
  // The model was given the essay's opening and its close.
  const sent = JSON.stringify(model.chatRequests.at(-1)!.messages);
  expect(sent).toContain('Sentence 1 of the lead');
  expect(sent).toContain('Paragraph 8 of section 12');
});

/** The right end of the status bar, where the meter is. */
function statusBarClip(page: import('@playwright/test').Page) {
  const { width, height } = page.viewportSize() ?? { width: 1280, height: 800 };
  return { x: width - 640, y: height - 40, width: 640, height: 40 };
}

test('a question too long for the window says what it needs and offers to compact or start a new chat', async ({
  page,
}) => {
  scriptAnswers(() => ({ text: 'Sure.' }));
  const app = new AppPage(page);
  await page.goto(server.url);
  const question = `Please read all of this: ${'every word of a very long pasted text '.repeat(900)}`;
  await app.composer.fill(question);
  await app.composer.press('Enter');
  const answer = app.chat.getByTestId('assistant-message').last();
  await expect(answer).toHaveAttribute('data-status', 'error');
  await expect(answer.getByRole('alert')).toContainText(/needs [\d,]+ tokens, [\d,]+ are available/);
  // Nothing was sent: the model would have refused it, and the question is kept in the chat.
  expect(model.chatRequests).toHaveLength(0);
  await expect(app.chat.getByTestId('user-message')).toContainText('Please read all of this');
  await expect(answer.getByTestId('overflow-compact')).toBeVisible();
  await answer.getByTestId('overflow-new-chat').click();
  await expect(app.chat.getByTestId('user-message')).toHaveCount(0);
});

test('Settings choose how new chats fit the window, and the breakdown of a new chat follows', async ({
  page,
}) => {
  scriptAnswers(() => ({ text: 'Noted.' }));
  const app = new AppPage(page);
  await page.goto(server.url);
  await page.getByTestId('model-status').click();
  const settings = page.getByTestId('settings');
  await settings.getByTestId('context-default-strategy').selectOption('summarize');
  await settings.getByTestId('context-threshold').fill('70');
  await settings.getByTestId('context-share-context').fill('20');
  // The shares no longer add up: saving waits until they do.
  await expect(settings.getByTestId('context-settings-save')).toBeDisabled();
  await settings.getByTestId('context-share-conversation').fill('70');
  await settings.getByTestId('context-settings-save').click();
  await expect(settings.getByText('Saved.')).toBeVisible();
  await settings
    .getByRole('region', { name: 'Context', exact: true })
    .screenshot({ path: 'test-results/context/settings.png' });
  await page.getByRole('button', { name: 'Close settings' }).click();

  await ask(app, 'A first question about compost?');
  await app.contextMeter.click();
  await expect(app.contextPopover.getByTestId('context-strategy')).toHaveValue('summarize');
  await page.keyboard.press('Escape');

  await page.reload();
  await page.getByTestId('model-status').click();
  await expect(page.getByTestId('context-threshold')).toHaveValue('70');
  await expect(page.getByTestId('context-default-strategy')).toHaveValue('summarize');
});
