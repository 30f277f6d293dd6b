import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Request } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { sentText } from '../support/context-items-vault';
import { contextItemsHost } from '../support/context-items-host';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'attachments');
const host = contextItemsHost({ rules: false, reply: 'Read them.' });

test.use({ viewport: { width: 1280, height: 800 } });

test('a PDF and a Markdown file dropped on the composer, and code pasted, show their pages and tokens, go to the model with the message, and stay on it', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
  await app.dropFiles(app.composerArea, [join(fixtures, 'two-pages.pdf'), join(fixtures, 'notes.md')]);
  const chips = app.composerArea.getByTestId('attachment-chip');
  await expect(chips).toHaveText([
    /two-pages\.pdf\s*PDF, 2 pages · [1-9]\d* tokens/,
    /notes\.md\s*Markdown · [1-9]\d* tokens/,
  ]);
  // Files copied elsewhere and pasted into the message box come along too.
  await app.pasteFiles(app.composer, [join(fixtures, 'greet.py')]);
  await expect(chips).toHaveCount(3);
  await expect(chips.last()).toHaveText(/greet\.py\s*code · [1-9]\d* tokens/);
  await app.composer.fill('What do these files say about the heron?');
  await page.screenshot({ path: 'test-results/context-items/composer-chips.png' });
  await readmeScreenshot(page, 'attachments');
  await app.composer.press('Enter');

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  const sent = sentText(host.model.chatRequests.at(-1)!);
  expect(sent).toContain('The heron waits at the weir');
  expect(sent).toContain('Page two: the river rises in March.');
  expect(sent).toContain('Reading list');
  expect(sent).toContain('def greet(name: str)');
  await expect(chips).toHaveCount(0);
  await expect(app.chat.getByTestId('user-message').getByTestId('attachment-chip')).toHaveText([
    /two-pages\.pdf\s*PDF, 2 pages · \d+ tokens/,
    /notes\.md\s*Markdown · \d+ tokens/,
    /greet\.py\s*code · \d+ tokens/,
  ]);

  await app.showTab('Context');
  await expect(app.chatContext.getByTestId('file-item')).toHaveText([
    /two-pages\.pdf/,
    /notes\.md/,
    /greet\.py/,
  ]);
  await page.screenshot({ path: 'test-results/context-items/message-files.png' });
});

test('files picked with the paperclip: a scanned PDF is refused with its reason, an image because the model cannot see images, and a removed file is not sent', async ({
  page,
}) => {
  const app = new AppPage(page);
  const prepared: string[] = [];
  page.on('request', (request: Request) => {
    if (request.url().includes('/api/attachments:prepare'))
      prepared.push((request.postDataJSON() as { name: string }).name);
  });
  await page.goto(host.server.url);
  const chips = app.composerArea.getByTestId('attachment-chip');
  const file = (name: string, mimeType: string) => ({
    name,
    mimeType,
    buffer: readFileSync(join(fixtures, name)),
  });

  const chooser = page.waitForEvent('filechooser');
  await app.composerArea.getByRole('button', { name: 'Attach files' }).click();
  await (
    await chooser
  ).setFiles([
    file('scan.pdf', 'application/pdf'),
    { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    file('greet.py', 'text/x-python'),
  ]);
  const scan = chips.filter({ hasText: 'scan.pdf' });
  await expect(scan).toHaveAttribute('data-state', 'refused');
  await expect(scan).toContainText('“scan.pdf” has no text to read: its pages are images only');
  await expect(chips.filter({ hasText: 'photo.png' })).toContainText(
    '“photo.png” cannot be sent: this model cannot see images',
  );
  const code = chips.filter({ hasText: 'greet.py' });
  await expect(code).toContainText(/code · \d+ tokens/);
  expect(prepared.sort()).toEqual(['greet.py', 'photo.png', 'scan.pdf']);
  await page.screenshot({ path: 'test-results/context-items/composer-refusals.png' });

  await scan.getByRole('button', { name: 'Dismiss the message about scan.pdf' }).click();
  await expect(scan).toHaveCount(0);
  await code.getByRole('button', { name: 'Remove greet.py' }).click();
  await expect(chips).toHaveText([/photo\.png/]);

  await app.composer.fill('Nothing attached after all.');
  await app.composer.press('Enter');
  await expect(app.chat.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete');
  expect(sentText(host.model.chatRequests.at(-1)!)).not.toContain('def greet');
  await expect(app.chat.getByTestId('user-message').getByTestId('attachment-chip')).toHaveCount(0);
  await expect(chips).toHaveCount(0);
});
