import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { contextItemsHost } from '../support/context-items-host';
import { sentText } from '../support/context-items-vault';
import { readmeScreenshot } from '../support/readme-screenshot';
import { startWebTestServer, type WebTestServer } from '../support/web-test-server';

const host = contextItemsHost({ rules: false, reply: 'Turn the heap every week [1].' });
let web: WebTestServer;

test.beforeEach(async () => {
  web = await startWebTestServer();
});
test.afterEach(() => web.close());

test.use({ viewport: { width: 1280, height: 800 } });

test('a pasted address becomes a chip, the answer cites the page, the references list it, and Save to vault writes it after approval', async ({
  page,
}) => {
  const app = new AppPage(page);
  // Near Kasten's own count, so no calibration notice above the answer in the README's picture.
  host.model.script(() => ({
    text: 'Turn the heap every week [1].',
    usage: { promptTokens: 1280, completionTokens: 10 },
  }));
  const fetchedByPage: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(web.url)) fetchedByPage.push(request.url());
  });
  await page.goto(host.server.url);
  const url = `${web.url}/article`;

  // The test server is on 127.0.0.1: refused until Settings allow private addresses.
  await app.composer.fill(`What does this page say about turning? ${url}`);
  const chip = app.composerArea.getByTestId('composer-web-pages').getByTestId('attachment-chip');
  await expect(chip).toHaveAttribute('data-state', 'refused');
  await expect(chip).toContainText('127.0.0.1 is a loopback address');
  await chip.getByRole('button', { name: /Dismiss/ }).click();
  await expect(chip).toHaveCount(0);
  // Taken out of the message and written again at once (before the typing settles), it is fetched again.
  await app.composer.fill('');
  await app.composer.fill(`Again: ${url}`);
  await expect(chip).toHaveAttribute('data-state', 'refused');
  await app.composer.fill('');
  await expect(chip).toHaveCount(0);
  await app.statusBar.getByTestId('model-status').click();
  const settings = page.getByTestId('settings');
  const allow = settings.getByRole('checkbox', {
    name: 'Allow pages on loopback and private network addresses',
  });
  await expect(allow).not.toBeChecked();
  // Checked once main has stored it.
  await allow.click();
  await expect(allow).toBeChecked();
  await page.keyboard.press('Escape');

  // Pasted as text is typed as text: the address in the message is what becomes the chip.
  await app.composer.fill('What does this page say about turning? ');
  await app.composer.press('End');
  await page.keyboard.insertText(url);
  await expect(chip).toHaveAttribute('data-state', 'ready');
  await expect(chip).toHaveText(/Hot composting\s*web page · [1-9][\d,]* tokens/);
  await app.composer.press('Enter');

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  const sent = sentText(host.model.chatRequests.at(-1)!);
  expect(sent).toContain('ARTICLE-MARK');
  expect(sent).toContain(String.raw`kind=\"web\" url=\"${url}\" document=\"1\"`);
  await expect(answer.getByTestId('citation-chip')).toHaveText('1');

  await app.showTab('References');
  const reference = app.references.getByTestId('reference').filter({ hasText: 'Hot composting' });
  await expect(reference.getByTestId('reference-address')).toHaveText(url);
  await expect(reference.getByTestId('kind-web')).toBeVisible();
  await expect(reference.getByTestId('kind-cited')).toBeVisible();

  await reference.getByRole('button', { name: 'Save to vault' }).click();
  const approval = reference.getByTestId('web-save-approval');
  await expect(approval).toContainText('Web pages/Hot composting.md');
  await expect(approval).toContainText(`source: ${url}`);
  await readmeScreenshot(page, 'web-pages');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(reference.getByTestId('web-saved')).toHaveText('Saved as Web pages/Hot composting.md');
  const note = readFileSync(join(host.workspace.vault, 'Web pages', 'Hot composting.md'), 'utf8');
  expect(note).toContain(`source: ${url}`);
  expect(note).toContain('ARTICLE-MARK');

  // Kasten's main process fetched the page; the renderer never asked the page's server for anything.
  expect(fetchedByPage).toEqual([]);
  expect(web.requests).toContain('/article');
});

test('a link dropped on the composer joins the message and becomes a web chip', async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.statusBar.getByTestId('model-status').click();
  const allow = page
    .getByTestId('settings')
    .getByRole('checkbox', { name: 'Allow pages on loopback and private network addresses' });
  if (!(await allow.isChecked())) await allow.click();
  await expect(allow).toBeChecked();
  await page.keyboard.press('Escape');

  const url = `${web.url}/article`;
  await app.composer.fill('What does this page say?');
  // A link dragged from a browser: a text/uri-list, whose lines starting with # are comments.
  const dataTransfer = await page.evaluateHandle((address) => {
    // The browser's DataTransfer: this file is type-checked without the DOM's types.
    const { DataTransfer } = globalThis as unknown as {
      DataTransfer: new () => { setData(type: string, value: string): void };
    };
    const data = new DataTransfer();
    data.setData('text/uri-list', `# dragged link\r\n${address}`);
    return data;
  }, url);
  await app.composerArea.dispatchEvent('dragover', { dataTransfer });
  await app.composerArea.dispatchEvent('drop', { dataTransfer });
  await expect(app.composer).toHaveValue(`What does this page say? ${url}`);
  const chip = app.composerArea.getByTestId('composer-web-pages').getByTestId('attachment-chip');
  await expect(chip).toHaveAttribute('data-state', 'ready');
  await expect(chip).toHaveText(/Hot composting\s*web page/);
  expect(web.requests).toContain('/article');
});
