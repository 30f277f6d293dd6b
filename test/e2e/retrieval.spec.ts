import { expect, test, type Page } from '@playwright/test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { fixturesDir, tempWorkspace } from '../support/temp-vault';

/**
 * A garden vault: Compost heap links to Garden beds, Watering links to it, Seed list shares its tag (and
 * so the word) without a link, Worm bin says much the same as the heap without a link either way, Tax
 * return is unrelated.
 */
const gardenNotes: Record<string, string> = {
  'Compost heap.md':
    '# Compost heap\n\nA compost heap turns kitchen scraps into soil. Turn it weekly so air reaches the ' +
    'middle.\n\nIt feeds the [[Garden beds]].\n\n#garden\n',
  'Garden beds.md':
    '# Garden beds\n\nRaised beds warm quickly in spring. Mulch keeps them moist.\n\n#garden\n',
  'Watering.md':
    '# Watering\n\nWater the seedlings at dawn. Soil from the [[Compost heap]] holds water longer.\n',
  'Seed list.md': '# Seed list\n\nTomatoes, beans and squash for the season.\n\n#garden\n',
  'Worm bin.md':
    '# Worm bin\n\nWorms turn kitchen scraps into dark soil faster than a heap of leaves, if the air ' +
    'reaches them.\n',
  'Tax return.md': '# Tax return\n\nFile the forms before April. Keep each receipt in one folder.\n',
};

/** Notes about nothing in the garden, enough of them that embedding takes several requests. */
function fillerNotes(count: number): Record<string, string> {
  const topics = ['harbour', 'violin', 'glacier', 'ledger', 'comet', 'lantern', 'orchard', 'quartz'];
  const notes: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const topic = topics[i % topics.length]!;
    const other = topics[(i * 3 + 1) % topics.length]!;
    notes[`archive/Entry ${String(i).padStart(3, '0')}.md`] =
      `# Entry ${i}\n\nThe ${topic} and the ${other} were noted on day ${i}. Nothing else happened.\n`;
  }
  return notes;
}

function writeVault(vault: string, notes: Record<string, string>): void {
  for (const [path, text] of Object.entries(notes)) {
    mkdirSync(join(vault, path, '..'), { recursive: true });
    writeFileSync(join(vault, path), text);
  }
}

let workspace: ReturnType<typeof tempWorkspace>;
let server: RunningServer;
let model: ScriptedModelServer | null = null;

test.beforeEach(() => {
  workspace = tempWorkspace();
});
test.afterEach(async () => {
  await server.stop();
  await model?.stop();
  model = null;
  workspace.remove();
});

const related = (page: Page) => page.getByRole('region', { name: 'Related notes' });

test('the related section lists links, backlinks, shared tags and an unlinked similar note as a missing link', async ({
  page,
}) => {
  writeVault(workspace.vault, gardenNotes);
  server = await startKastenServer({ vault: workspace.vault, dataDir: workspace.dataDir });
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Compost heap').click();
  await expect(app.viewerTitle()).toHaveText('Compost heap');

  const section = related(page);
  const notes = section.getByTestId('related-note');
  // A shared tag is its own reason, not a shared word; only a note sharing telling words is similar.
  await expect(notes).toHaveText([
    'Garden beds linked from here · shares #garden',
    'Worm bin missing link similar words: kitchen, scraps, soil',
    'Seed list shares #garden',
    'Watering links here',
  ]);
  await expect(section.getByRole('heading', { name: /Related/ })).toHaveText('Related 4 · 1 missing link');
  await expect(section).toContainText(
    'Similar by words. To find notes similar in meaning, turn on Settings → Semantic search.',
  );
  await expect(notes.filter({ hasText: 'Worm bin' }).getByTestId('missing-link')).toHaveAttribute(
    'title',
    /neither note links to the other/,
  );
  await section.scrollIntoViewIfNeeded();
  await readmeScreenshot(page, 'related');

  // The missing link opens its note, whose own related notes name the heap it resembles.
  await section.getByRole('button', { name: 'Worm bin' }).click();
  await expect(app.viewerTitle()).toHaveText('Worm bin');
  await expect(notes.filter({ hasText: 'Compost heap' })).toContainText('missing link');
  await expect(notes.filter({ hasText: 'Tax return' })).toHaveCount(0);

  // Collapsed, the section keeps only its heading, also for the next note opened.
  await section.locator('summary').click();
  await expect(notes.first()).toBeHidden();
  await app.note('Compost heap').click();
  await expect(app.viewerTitle()).toHaveText('Compost heap');
  await expect(section.getByRole('heading', { name: /Related/ })).toHaveText('Related 4 · 1 missing link');
  await expect(notes.first()).toBeHidden();
});

test('the related section marks a translation "same name, in ko/" and offers only other notes as missing links', async ({
  page,
}) => {
  // The English help at the top of the vault, its Korean and Chinese translations in folders of their own.
  const translations = join(fixturesDir, 'translations');
  cpSync(join(translations, 'en'), workspace.vault, { recursive: true });
  for (const folder of ['ko', 'zh', 'misc']) {
    cpSync(join(translations, folder), join(workspace.vault, folder), { recursive: true });
  }
  server = await startKastenServer({ vault: workspace.vault, dataDir: workspace.dataDir });
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.tree.locator('[title="Embed files.md"]').click();
  await expect(app.viewerTitle()).toHaveText('Embed files');

  const section = related(page);
  const notes = section.getByTestId('related-note');
  await expect(notes).toHaveCount(4);
  await expect(section.getByRole('heading', { name: /Related/ })).toHaveText('Related 4 · 1 missing link');
  await expect(notes.filter({ hasText: 'Link to files' }).getByTestId('missing-link')).toBeVisible();
  const korean = notes.filter({ has: page.locator('[title="ko/Embed files.md"]') });
  await expect(korean.getByTestId('same-name')).toHaveText('same name, in ko/');
  await expect(korean.getByTestId('same-name')).toHaveAttribute('title', /such as a translation/);
  await expect(korean.getByTestId('missing-link')).toHaveCount(0);
  await expect(section.getByTestId('same-name')).toHaveText(['same name, in ko/', 'same name, in zh/']);

  // Opened, the Korean note names the English one by its place: the top of the vault.
  await korean.getByRole('button', { name: 'Embed files' }).click();
  await expect(section.getByTestId('same-name').first()).toHaveText('same name, at the top of the vault');
});

test('semantic search set up in the settings embeds the vault with progress and Cancel, then finds notes by meaning', async ({
  page,
}) => {
  const vaultNotes = { ...gardenNotes, ...fillerNotes(120) };
  const textOf = (title: string) => Object.values(vaultNotes).find((text) => text.startsWith(`# ${title}\n`));
  writeVault(workspace.vault, vaultNotes);
  // Slow enough that a run's progress and its Cancel can be seen: one batch of passages a second.
  model = await startScriptedModelServer({ embeddingDelayMs: 1000 });
  server = await startKastenServer({ vault: workspace.vault, dataDir: workspace.dataDir });
  const app = new AppPage(page);
  await page.goto(server.url);
  // The archive folder is listed first, closed as folders start: the garden notes show below it.
  await app.note('Compost heap').click();
  const section = related(page);
  await expect(section).toContainText('Similar by words.');
  // Off, embeddings show nothing in the status bar.
  await expect(app.statusBar.getByTestId('embedding-progress')).toHaveCount(0);

  await section.getByRole('button', { name: 'Settings → Semantic search' }).click();
  const settings = page.getByTestId('settings').getByRole('region', { name: 'Semantic search' });
  await expect(settings.getByRole('heading', { name: 'Semantic search' })).toBeInViewport();
  await expect(settings.getByTestId('embedding-status')).toHaveText(
    'No passages embedded yet. Search is lexical only, because no embedding model is configured.',
  );
  await settings.getByRole('checkbox', { name: 'Search by meaning' }).check();
  await settings.getByRole('combobox', { name: 'Embedding API' }).selectOption('openai-compatible');
  await settings.getByRole('textbox', { name: 'Server URL' }).fill(`${model.url}/v1`);
  await settings.getByRole('textbox', { name: 'Embedding model' }).fill('bag-of-words');
  await settings.getByRole('button', { name: 'Save semantic search' }).click();
  await expect(settings.getByText('Saved.')).toBeVisible();
  await page.keyboard.press('Escape');

  // Saving starts a run; the status bar follows it batch by batch and stops it on Cancel.
  const progress = app.statusBar.getByTestId('embedding-progress');
  await expect(progress).toContainText(/Embedding 32 \/ \d+ passages/);
  await page.screenshot({ path: 'test-results/retrieval/progress.png' });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toBeHidden();
  await expect(app.statusBar.getByTestId('embedding-cancelled')).toHaveText('Embedding cancelled');

  model.setEmbeddingDelay(0);
  await app.statusBar.getByTestId('model-status').click();
  // What was embedded before Cancel is kept; the rest waits.
  const status = settings.getByTestId('embedding-status');
  const vectorsFrom = `bag-of-words at ${model.url}/v1 \\(openai-compatible\\)`;
  await expect(status).toHaveText(
    new RegExp(`^\\d+ passages embedded from ${vectorsFrom}; \\d+ waiting\\.$`),
  );
  await settings.getByRole('button', { name: 'Embed now' }).click();
  await expect(status).toHaveText(new RegExp(`^\\d+ passages embedded from ${vectorsFrom}\\.$`));
  await settings.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/retrieval/settings.png' });
  await page.keyboard.press('Escape');
  await expect(app.statusBar.getByTestId('embedding-cancelled')).toBeHidden();

  // Related notes are now similar by meaning, with how close.
  await expect(section).not.toContainText('Similar by words');
  await expect(section.getByTestId('related-note').first()).toContainText(/similar: 0\.\d\d/);

  // Hybrid search: the notes holding the word, then notes only the vectors found, marked as such.
  await page.getByTestId('search-input').fill('compost');
  const semantic = page.getByTestId('search-result').filter({ has: page.getByTestId('semantic-hit') });
  await expect(semantic.first()).toBeVisible();
  await expect(semantic.first().getByTestId('semantic-hit')).toHaveAttribute(
    'title',
    'Found by meaning: the note does not contain these words',
  );
  const lexical = page.getByTestId('search-result').filter({ hasNot: page.getByTestId('semantic-hit') });
  await expect(lexical.locator('.search-title')).toHaveText(['Compost heap', 'Watering']);
  await page.screenshot({ path: 'test-results/retrieval/search.png' });
  for (const title of await semantic.locator('.search-title').allInnerTexts()) {
    expect(textOf(title), `${title} is a note of the vault`).toBeDefined();
    expect(textOf(title), `${title} holds no "compost"`).not.toMatch(/compost/i);
  }

  // A server that fails the next run's request is named in the status bar, with its error on hover.
  model.failEmbeddings(500);
  writeFileSync(join(workspace.vault, 'Leaf mould.md'), '# Leaf mould\n\nOak leaves rot slowly in a cage.\n');
  const failed = app.statusBar.getByTestId('embedding-failed');
  await expect(failed).toHaveText('Embeddings failed');
  await expect(failed).toHaveAttribute('title', new RegExp(`${model.url}/v1 failed with 500`));
});
