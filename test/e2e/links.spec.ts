import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { scriptedModelArgs, startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;

test.beforeEach(async () => {
  // Two notes named Canvas (en/Plugins/ and ko/플러그인/), a note with the alias AI and a note linking
  // [[AI]], a Chinese note with the alias "Graph view".
  workspace = tempWorkspace('twins');
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

test('picking a twin in the [[ completion sends that note; [[Note# offers its headings; a missing heading is marked', async ({
  page,
}) => {
  model.script([{ text: 'Noted.' }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  const composer = page.getByTestId('composer');
  const notes = page.getByRole('listbox', { name: 'Notes' });

  await composer.fill('What is [[canvas');
  await expect(notes.getByRole('option')).toHaveCount(2);
  await notes.getByRole('option').filter({ hasText: 'en/Plugins/Canvas.md' }).click();
  // `[[Canvas]]` would go to the Korean twin (the shorter path): the link names the English one.
  await expect(composer).toHaveValue('What is [[Plugins/Canvas]]');

  // The exact alias comes first, and is written after the link to its note.
  await composer.fill('What is [[Plugins/Canvas]] and [[ai');
  await expect(notes.getByRole('option').first()).toContainText('AI → Artificial Intelligence');
  await composer.press('Enter');
  await expect(composer).toHaveValue('What is [[Plugins/Canvas]] and [[Artificial Intelligence|AI]]');

  await composer.fill('What is [[Plugins/Canvas#');
  const headings = page.getByRole('listbox', { name: 'Headings' });
  await expect(headings.getByRole('option')).toHaveText([/^Canvas/, /^Create a canvas/, /^Cards/]);
  await composer.pressSequentially('car');
  await expect(headings.getByRole('option')).toHaveText([/^Cards/]);
  await composer.press('Enter');
  await expect(composer).toHaveValue('What is [[Plugins/Canvas#Cards]]');
  await composer.fill('What is [[Plugins/Canvas#^');
  await expect(page.getByRole('listbox', { name: 'Blocks' }).getByRole('option')).toHaveText([
    /\^cards-intro.*Drag a note onto the canvas/,
  ]);

  // Before sending: a missing heading, a missing note, an alias and a bare twin name are each marked.
  await composer.fill(
    'What is [[Plugins/Canvas#Cards]], [[Plugins/Canvas#Nowhere]], [[Nothing]], [[AI]] and [[Canvas]]?',
  );
  const links = page.getByTestId('draft-link');
  await expect(links).toHaveText([
    '[[Plugins/Canvas#Cards]]',
    '[[Plugins/Canvas#Nowhere]] — no such heading',
    '[[Nothing]] — no such note',
    '[[AI]] → Artificial Intelligence (by its alias)',
    '[[Canvas]] → ko/플러그인/Canvas.md',
  ]);
  await expect(links.filter({ hasText: 'Nowhere' })).toHaveClass(/draft-link-broken-subpath/);

  await composer.fill('What is [[Plugins/Canvas]]?');
  await composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  const sent = JSON.stringify(model.chatRequests[0]!.messages);
  expect(sent).toContain('Canvas is a core plugin for visual note-taking');
  expect(sent).not.toContain('캔버스는');
  const reference = app.references.getByTestId('reference').filter({ hasText: 'en/Plugins/Canvas.md' });
  await expect(reference.getByTestId('kind-direct')).toBeVisible();
  await expect(app.references.getByTestId('reference').filter({ hasText: 'ko/' })).toHaveCount(0);
});

test('a question naming a note by its alias sends the note, and the references say which alias named it', async ({
  page,
}) => {
  model.script([{ text: 'Noted.' }]);
  const app = new AppPage(page);
  await page.goto(server.url);
  const composer = page.getByTestId('composer');
  await composer.fill('What is [[AI]]?');
  await composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  expect(JSON.stringify(model.chatRequests[0]!.messages)).toContain('Machines that learn from data');
  const reference = app.references.getByTestId('reference').filter({ hasText: 'Artificial Intelligence' });
  await expect(reference.getByTestId('kind-direct')).toBeVisible();
  await expect(reference.getByTestId('reference-alias')).toHaveText('named by its alias “AI”');
});

test('health lists [[AI]] as an alias of Artificial Intelligence, unresolved, with the link to write', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(page.getByTestId('health-button')).toHaveText('⚠ 1 issue');
  await page.getByTestId('health-button').click();
  await expect(page.getByTestId('health-section')).toHaveCount(1);
  await expect(page.getByTestId('health-section')).toContainText('Links naming an alias');
  const group = page.locator('[data-testid="health-group"][data-kind="alias"]');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText('AI');
  await expect(group).toContainText('“AI” is an alias of Artificial Intelligence');
  await group.click();
  const row = page.getByTestId('health-link');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('[[AI]]');
  await expect(row.getByTestId('health-fix')).toHaveText('Write [[Artificial Intelligence|AI]]');
  await expect(row).toContainText('Reading list.md:3');
  await expect(page.locator('[data-testid="health-group"][data-kind="broken"]')).toHaveCount(0);

  // In the note, the link is broken and says how to fix it.
  await row.click();
  await expect(app.viewerTitle()).toHaveText('Reading list');
  const link = app.wikilink('AI').first();
  await expect(link).toHaveClass(/wikilink-broken/);
  await expect(link).toHaveAttribute(
    'title',
    /an alias of Artificial Intelligence.*Write \[\[Artificial Intelligence\|AI\]\]/,
  );
});
