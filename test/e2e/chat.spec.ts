import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;

function startHost(): Promise<RunningServer> {
  return startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: scriptedModelArgs(model.url),
  });
}

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  model = await startScriptedModelServer();
  server = await startHost();
});
test.afterEach(async () => {
  await server.stop({ keepData: true });
  await model.stop();
  workspace.remove();
});

async function ask(app: AppPage, text: string) {
  const composer = app.page.getByTestId('composer');
  await composer.fill(text);
  await composer.press('Enter');
}

test('an answer shows its direct, searched, read and cited notes; a chip opens the note at the heading', async ({
  page,
}) => {
  model.script([
    { toolCalls: [{ name: 'search_notes', arguments: { query: 'links' } }] },
    { toolCalls: [{ name: 'read_note', arguments: { note: 'Zettelkasten method', heading: 'Links' } }] },
    { text: 'Links between notes matter more than folders [1].', chunkSize: 4, delayMs: 10 },
  ]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'What does [[Zettelkasten method]] say about links?');

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer).toContainText('Links between notes matter more than folders');
  await expect(answer.getByTestId('tool-call')).toHaveText([
    /search_notes.*links/,
    /read_note.*Zettelkasten method/,
  ]);

  const zettel = app.references.getByTestId('reference').filter({ hasText: 'Zettelkasten method.md' });
  await expect(zettel.getByTestId('kind-direct')).toBeVisible();
  await expect(zettel.getByTestId('kind-search-hit')).toBeVisible();
  await expect(zettel.getByTestId('kind-read')).toBeVisible();
  await expect(zettel.getByTestId('kind-cited')).toBeVisible();
  const atomic = app.references.getByTestId('reference').filter({ hasText: 'Atomic notes.md' });
  await expect(atomic).toContainText('search hit');
  // What the model received from each note: a search hit's snippet too, not only the notes linked.
  await expect(atomic.getByTestId('reference-tokens')).toHaveText(/^[1-9]\d* tokens$/);
  await expect(atomic.getByTestId('reference-tokens')).toHaveAttribute('title', /found by a search/);
  await expect(zettel.getByTestId('reference-tokens')).toHaveAttribute('title', /linked.*read.*search/);

  const chip = answer.getByTestId('citation-chip');
  await expect(chip).toHaveText('1');
  await expect(answer).not.toContainText('[1]');
  await chip.click();
  await expect(app.viewerTitle()).toHaveText('Zettelkasten method');
  await expect(app.viewer.getByText('Links between notes matter more than folders')).toBeInViewport();
  await expect(app.viewer.getByText('A way of keeping notes as small')).not.toBeInViewport();
  await readmeScreenshot(page, 'main');

  await app.viewer.getByRole('button', { name: /close/i }).click();
  await zettel.getByRole('button').first().click();
  await expect(app.viewer.getByText('Links between notes matter more than folders')).toBeInViewport();
});

test('a reference card is one target for mouse and keyboard; a broken link shows as typed, with how to create it', async ({
  page,
}) => {
  model.script([{ text: 'One of them exists.' }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'Compare [[Atomic notes]] with [[Slip boxes]].');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');

  const broken = app.references.getByTestId('reference').filter({ hasText: '[[Slip boxes]]' });
  await expect(broken).toContainText('no such note');
  await expect(broken).toContainText('Turn on Allow writes to have the assistant create it');
  await expect(broken.getByRole('button')).toHaveCount(0);

  const atomic = app.references.getByTestId('reference').filter({ hasText: 'Atomic notes.md' });
  // Anywhere on the card: here its kinds.
  await atomic.getByTestId('kind-direct').click();
  await expect(app.viewerTitle()).toHaveText('Atomic notes');
  await app.viewer.getByRole('button', { name: /close/i }).click();
  // The card opens the note; its second target, the pin, has a name of its own.
  await atomic.getByRole('button').first().focus();
  await expect(atomic.getByRole('button', { name: 'Pin “Atomic notes” to this chat' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(app.viewerTitle()).toHaveText('Atomic notes');
});

test('Stop during streaming keeps the partial answer', async ({ page }) => {
  model.script([{ text: 'A long answer, word after word. '.repeat(300), chunkSize: 4, delayMs: 15 }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'Tell me everything.');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toContainText('word after word. A long answer');
  await app.chat.getByRole('button', { name: 'Stop' }).click();
  await expect(answer).toHaveAttribute('data-status', 'stopped');
  await expect(answer).toContainText('Stopped. The answer so far is kept.');
  const kept = (await answer.locator('.answer').innerText()).length;
  expect(kept).toBeGreaterThan(30);
  expect(kept).toBeLessThan(9000);
  await expect(app.chat.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('Stop before the first word says so and offers Retry', async ({ page }) => {
  model.script((_request, index) => (index === 0 ? { fault: 'hang' } : { text: 'Tomatoes need sun.' }));
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'What do tomatoes need?');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'streaming');
  await app.chat.getByRole('button', { name: 'Stop' }).click();
  await expect(answer).toHaveAttribute('data-status', 'stopped');
  await expect(answer).toContainText('Stopped before the answer began.');
  await app.chat.getByRole('button', { name: 'Retry' }).click();
  await expect(app.chat.getByTestId('assistant-message').last()).toContainText('Tomatoes need sun.');
});

test('a failed answer says why and Retry answers again; the session survives restarting the host', async ({
  page,
}) => {
  model.script((_request, index) =>
    index < 3
      ? { fault: 'status', status: 500, body: { error: { message: 'model crashed' } } }
      : { text: 'Tomatoes need sun.' },
  );
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'What do tomatoes need?');
  const answers = app.chat.getByTestId('assistant-message');
  await expect(answers.first()).toHaveAttribute('data-status', 'error');
  await expect(answers.first()).toContainText('failed with 500');
  await expect(answers.first()).toContainText('model crashed');
  await app.chat.getByRole('button', { name: 'Retry' }).click();
  await expect(answers.nth(1)).toHaveAttribute('data-status', 'complete');
  await expect(answers.nth(1)).toContainText('Tomatoes need sun.');

  await server.stop({ keepData: true });
  server = await startHost();
  await page.goto(server.url);
  await app.chat.getByRole('button', { name: 'Chats' }).click();
  await page
    .getByTestId('session-list')
    .getByRole('button', { name: /^What do tomatoes need\?/ })
    .click();
  await expect(app.chat.getByTestId('user-message')).toHaveText('What do tomatoes need?');
  await expect(answers.nth(1)).toContainText('Tomatoes need sun.');
});

test('a streamed answer grows as it streams, survives a reload mid-answer and ends complete', async ({
  page,
}) => {
  const text = Array.from({ length: 400 }, (_, index) => `w${index + 1}`).join(' ');
  model.script([{ text, chunkSize: 6, delayMs: 12 }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  await ask(app, 'Count for me.');
  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toContainText('w20 w21');
  await expect(answer).toHaveAttribute('data-status', 'streaming');
  const early = (await answer.locator('.answer').innerText()).length;
  await expect(answer).toContainText('w120 w121');
  await expect(answer).toHaveAttribute('data-status', 'streaming');
  expect((await answer.locator('.answer').innerText()).length).toBeGreaterThan(early);

  // A page that joins mid-answer gets the whole message, then what follows.
  await page.reload();
  await expect(answer).toContainText('w200 w201');
  await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  expect((await answer.locator('.answer').innerText()).trim()).toBe(text);
});
