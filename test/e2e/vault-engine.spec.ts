import { expect, test } from '@playwright/test';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { readmeScreenshot } from '../support/readme-screenshot';

const repoRoot = join(import.meta.dirname, '..', '..');
const sampleVault = join(repoRoot, 'resources', 'sample-vault');

let server: RunningServer;
let workspace: string;
let vault: string;
/** A data directory a test passed to a server it started itself, which stop() then leaves. */
let cleanupDataDir: string | null = null;

test.beforeEach(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-vault-'));
  vault = join(workspace, 'vault');
  cpSync(sampleVault, vault, { recursive: true });
  server = await startKastenServer({ vault });
});
test.afterEach(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
  if (cleanupDataDir) rmSync(cleanupDataDir, { recursive: true, force: true });
  cleanupDataDir = null;
});

test('search finds a note as you type and opens it', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const search = page.getByTestId('search-input');
  await search.fill('luhman');
  const first = page.getByTestId('search-result').first();
  await expect(first).toContainText('Niklas Luhmann');
  await expect(first.locator('mark').first()).toBeVisible();
  await readmeScreenshot(page, 'search');
  await first.click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
});

test('a question finds the note that answers it under "also matching some words", with its snippet', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await page.getByTestId('search-input').fill('how do I link two notes together?');
  const some = page.getByTestId('search-group-some-words');
  await expect(some.getByText('Also matching some words')).toBeVisible();
  const first = some.getByTestId('search-result').first();
  await expect(first).toContainText('Links between notes');
  await expect(first.locator('mark').filter({ hasText: 'together' })).toBeVisible();
  await expect(page.getByTestId('search-group-all-words')).toHaveCount(0);
  await first.click();
  await expect(app.viewerTitle()).toHaveText('Links between notes');
});

test('a [[Note#Heading]] link lands on the heading', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Zettelkasten method').click();
  await app.wikilink('Luhmann described it').click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
  await expect(app.viewer.getByRole('heading', { name: 'The slip box as a partner' })).toBeInViewport();
});

test('the health view lists broken links and opens the note that has one', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await page.getByTestId('health-button').click();
  const health = page.getByTestId('health-view');
  await expect(health).toBeVisible();
  const broken = health.locator('[data-testid="health-group"][data-kind="broken"]');
  await expect(broken).toHaveCount(1);
  await expect(broken).toContainText('Commonplace book — 1 link');
  await broken.click();
  const link = health.getByTestId('health-link');
  await expect(link).toContainText('concepts/Links between notes.md');
  await link.click();
  await expect(app.viewerTitle()).toHaveText('Links between notes');
});

test('a long list of issues is in the page a screenful at a time, down to its last one', async ({ page }) => {
  const links = Array.from({ length: 150 }, (_, index) => `- [[Nowhere ${index}]]`).join('\n');
  writeFileSync(join(vault, 'Many broken.md'), `# Many broken\n\n${links}\n`);
  await page.goto(server.url);
  // The sample vault's own broken link, and these.
  await expect(page.getByTestId('health-button')).toHaveText('⚠ 151 issues');
  await page.getByTestId('health-button').click();
  const health = page.getByTestId('health-view');
  await expect(health.getByTestId('health-section')).toContainText('151 links to 151 targets');
  const groups = health.getByTestId('health-group');
  await expect(groups.first()).toBeVisible();
  expect(await groups.count()).toBeLessThan(80);
  // By name after the one link each: Nowhere 99 comes last.
  const last = groups.filter({ hasText: 'Nowhere 99 —' });
  await expect
    .poll(async () => {
      await health.getByTestId('health-list').evaluate((list) => (list.scrollTop = list.scrollHeight));
      return last.count();
    })
    .toBe(1);
  await last.click();
  await health.getByTestId('health-link').filter({ hasText: '[[Nowhere 99]]' }).click();
  await expect(new AppPage(page).viewerTitle()).toHaveText('Many broken');
});

test('an index that cannot be read is rebuilt, and the health view says so', async ({ page }) => {
  const app = new AppPage(page);
  const { dataDir } = server;
  await server.stop({ keepData: true });
  const indexes = join(dataDir, 'indexes');
  const file = readdirSync(indexes).find((name) => name.endsWith('.sqlite'))!;
  rmSync(join(indexes, `${file}-wal`), { force: true });
  writeFileSync(join(indexes, file), 'not a database '.repeat(500));
  server = await startKastenServer({ vault, dataDir });
  cleanupDataDir = dataDir;

  await page.goto(server.url);
  await expect(page.getByTestId('health-button')).toHaveText('⚠ 2 issues');
  await page.getByTestId('health-button').click();
  const notice = page.getByTestId('health-notice');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText(`${file} could not be read; it is being rebuilt from the vault.`);
  await expect(page.locator('[data-testid="health-group"][data-kind="broken"]')).toHaveCount(1);
  // Opening a note from the tree shows it in place of the health view.
  await app.openFolders('people');
  await app.note('Niklas Luhmann').click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
});

test('editing files on disk updates the open note and its backlinks without a reload', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.openFolders('people');
  await app.note('Niklas Luhmann').click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
  const backlinks = page.getByTestId('backlink');
  await expect(backlinks.first()).toBeVisible();
  const before = await backlinks.count();

  const file = join(vault, 'people', 'Niklas Luhmann.md');
  writeFileSync(file, readFileSync(file, 'utf8') + '\n## Added on disk\n\nWritten while Kasten was open.\n');
  await expect(app.viewer.getByRole('heading', { name: 'Added on disk' })).toBeVisible();

  writeFileSync(
    join(vault, 'Reading list.md'),
    '# Reading list\n\nStart with [[Niklas Luhmann]] and his slip box.\n',
  );
  await expect(backlinks).toHaveCount(before + 1);
  await expect(backlinks.filter({ hasText: 'Start with' })).toBeVisible();
  await backlinks.last().scrollIntoViewIfNeeded();
  await readmeScreenshot(page, 'backlinks');
});

test('an edit elsewhere that links the open note reloads it once', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.openFolders('people');
  await app.note('Niklas Luhmann').click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
  await expect(page.getByTestId('backlink').first()).toBeVisible();
  const reads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/notes:read')) reads.push(request.postData() ?? '');
  });

  const file = join(vault, 'concepts', 'Writing as thinking.md');
  writeFileSync(file, `${readFileSync(file, 'utf8')}\nA line added on disk about [[Niklas Luhmann]].\n`);
  await expect(page.getByTestId('backlink').filter({ hasText: 'A line added on disk' })).toBeVisible();
  // The end of the index pass and the change it made arrive together: one reload, not one each. A second
  // edit's reload comes after any second reload of the first, so once it shows, both edits were counted.
  const other = join(vault, 'Marker.md');
  writeFileSync(other, '# Marker\n\nA second edit about [[Niklas Luhmann]].\n');
  await expect(page.getByTestId('backlink').filter({ hasText: 'A second edit' })).toBeVisible();
  expect(reads).toHaveLength(2);
});

test('the open note renamed on disk is followed, without closing the health view shown over it', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.openFolders('people');
  await app.note('Niklas Luhmann').click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
  await page.getByTestId('health-button').click();
  await expect(page.getByTestId('health-view')).toBeVisible();

  renameSync(join(vault, 'people', 'Niklas Luhmann.md'), join(vault, 'people', 'Luhmann.md'));
  await expect(app.note('Luhmann')).toBeVisible();
  await expect(page.getByTestId('health-view')).toBeVisible();
  await page.getByRole('button', { name: 'Close vault health' }).click();
  await expect(app.viewerTitle()).toHaveText('Luhmann');
  await expect(app.viewer.getByText('people/Luhmann.md')).toBeVisible();
});

test('an embedded section follows its note as it is edited on disk', async ({ page }) => {
  writeFileSync(
    join(vault, 'Embedded.md'),
    '# Embedded\n\n## Part\n\nFirst text.\n\n## Other\n\nNot embedded.\n',
  );
  writeFileSync(join(vault, 'Embedding.md'), '# Embedding\n\n![[Embedded#Part]]\n\nAfter the embed.\n');
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Embedding').click();
  const embed = app.viewer.getByTestId('note-embed');
  await expect(embed).toContainText('First text.');
  await expect(embed).not.toContainText('Not embedded.');

  // Lines added above the heading move it: the section is found again in the new text.
  writeFileSync(
    join(vault, 'Embedded.md'),
    '# Embedded\n\nA new introduction.\n\nOf two paragraphs.\n\n## Part\n\nSecond text.\n\n## Other\n\nNot embedded.\n',
  );
  await expect(embed).toContainText('Second text.');
  await expect(embed).not.toContainText('A new introduction.');
  await expect(embed).not.toContainText('Not embedded.');
});

test('an embed stays in place while other notes change', async ({ page }) => {
  writeFileSync(join(vault, 'Embedded.md'), '# Embedded\n\nThe embedded text.\n');
  writeFileSync(join(vault, 'Embedding.md'), '# Embedding\n\n![[Embedded]]\n\nSee [[Elsewhere]].\n');
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.note('Embedding').click();
  const embed = app.viewer.getByTestId('note-embed');
  await expect(embed).toContainText('The embedded text.');
  await expect(app.viewer.getByRole('link', { name: 'Elsewhere' })).toHaveClass(/wikilink-broken/);
  // A mark React does not know about: it is gone if the embed is rendered into a new element.
  await embed.evaluate((element) => element.setAttribute('data-kept', 'yes'));

  // A new note makes the open note's broken link resolve: the note reloads, its embed is not rebuilt.
  writeFileSync(join(vault, 'Elsewhere.md'), '# Elsewhere\n');
  await expect(app.viewer.getByRole('link', { name: 'Elsewhere' })).not.toHaveClass(/wikilink-broken/);
  await expect(embed).toHaveAttribute('data-kept', 'yes');
  await expect(embed).toContainText('The embedded text.');

  // An edit to the embedded note still shows, in the same element.
  writeFileSync(join(vault, 'Embedded.md'), '# Embedded\n\nThe edited text.\n');
  await expect(embed).toContainText('The edited text.');
  await expect(embed).toHaveAttribute('data-kept', 'yes');
});

test('deleting the vault folder while it is open says so and keeps the notes readable', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await expect(app.note('Zettelkasten method')).toBeVisible();
  // The tree comes from the folder scan; search waits for the index, which must have read the notes first.
  const search = page.getByTestId('search-input');
  await search.fill('luhmann');
  await expect(page.getByTestId('search-result').first()).toContainText('Niklas Luhmann');
  await search.fill('');
  rmSync(vault, { recursive: true, force: true });
  await expect(page.getByTestId('vault-missing')).toContainText(`The folder ${vault} is gone`);
  await expect(app.note('Zettelkasten method')).toBeVisible();
  await search.fill('luhmann');
  await expect(page.getByTestId('search-result').first()).toContainText('Niklas Luhmann');
});

test('a vault folder that comes back is read again, with the open note kept', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.openFolders('people');
  await app.note('Niklas Luhmann').click();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
  // A drive unplugged, then plugged in again with a note written elsewhere meanwhile.
  const away = `${vault}-away`;
  renameSync(vault, away);
  await expect(page.getByTestId('vault-missing')).toBeVisible();
  writeFileSync(join(away, 'Written elsewhere.md'), '# Written elsewhere\n\nAbout [[Niklas Luhmann]].\n');
  renameSync(away, vault);
  await expect(page.getByTestId('vault-missing')).toHaveCount(0, { timeout: 10_000 });
  await expect(app.note('Written elsewhere')).toBeVisible();
  await expect(app.viewerTitle()).toHaveText('Niklas Luhmann');
  await expect(page.getByTestId('backlink').filter({ hasText: 'About Niklas Luhmann.' })).toBeVisible();
});
