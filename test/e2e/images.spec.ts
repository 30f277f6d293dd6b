import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { readmeScreenshot } from '../support/readme-screenshot';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { tempWorkspace } from '../support/temp-vault';

test.use({ viewport: { width: 1280, height: 800 } });

let workspace: ReturnType<typeof tempWorkspace>;
let model: ScriptedModelServer;
let server: RunningServer;
let files: string;

test.beforeEach(async () => {
  workspace = tempWorkspace('chat');
  files = mkdtempSync(join(tmpdir(), 'kasten-images-'));
  model = await startScriptedModelServer({ models: [{ id: 'gpt-4o' }] });
  // About what Kasten counts for the request (the image's 1,105 tokens and the rest), as a server reports it.
  model.script(() => ({
    text: 'A heron standing in shallow water at dusk.',
    usage: { promptTokens: 1990, completionTokens: 11 },
  }));
  // gpt-4o: the server's model list says nothing of images, so the known-models table decides.
  server = await startKastenServer({
    vault: workspace.vault,
    dataDir: workspace.dataDir,
    args: ['--base-url', `${model.url}/v1`, '--model', 'gpt-4o', '--no-summaries'],
  });
});
test.afterEach(async () => {
  await server.stop();
  await model.stop();
  workspace.remove();
  rmSync(files, { recursive: true, force: true });
});

test('an image dropped on the composer shows its tokens and reaches the model as an image_url part', async ({
  page,
}) => {
  const photo = join(files, 'heron.jpg');
  writeFileSync(
    photo,
    await sharp({
      create: {
        width: 2400,
        height: 1600,
        channels: 3,
        background: '#6a8',
        noise: { type: 'gaussian', mean: 110, sigma: 30 },
      },
    })
      .jpeg()
      .toBuffer(),
  );
  const app = new AppPage(page);
  await page.goto(server.url);
  await app.dropFiles(app.composerArea, [photo]);
  const chip = app.composerArea.getByTestId('attachment-chip');
  // 2400 × 1600 is sent at 1152 × 768: 3 × 2 tiles, 85 + 6 × 170 = 1,105 tokens, and the tag around it.
  await expect(chip).toHaveText(/heron\.jpg\s*image · 1,1[0-4]\d tokens/);
  await app.composer.fill('What bird is in this photo?');
  await app.composer.press('Enter');

  const answer = app.chat.getByTestId('assistant-message');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer).toContainText('A heron standing in shallow water');
  const messages = model.chatRequests.at(-1)!.body.messages as { role: string; content: unknown }[];
  const parts = messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string; image_url?: { url: string } }[])
      : [],
  );
  const images = parts.filter((part) => part.type === 'image_url');
  expect(images).toHaveLength(1);
  const [kind, data] = images[0]!.image_url!.url.split(',');
  expect(kind).toBe('data:image/jpeg;base64');
  const sent = await sharp(Buffer.from(data!, 'base64')).metadata();
  expect([sent.width, sent.height]).toEqual([1152, 768]);
  await expect(app.chat.getByTestId('user-message').getByTestId('attachment-chip')).toHaveText(
    /heron\.jpg\s*image · [\d,]+ tokens/,
  );
  await readmeScreenshot(page, 'images');
});

test('Settings says whether the model sees images and where from; set to No, a dropped image is refused before anything is sent', async ({
  page,
}) => {
  const drawing = join(files, 'plan.png');
  writeFileSync(
    drawing,
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#39c' } })
      .png()
      .toBuffer(),
  );
  const app = new AppPage(page);
  await page.goto(server.url);
  await page.getByTestId('model-status').click();
  const settings = page.getByTestId('settings');
  await expect(settings.getByTestId('model-vision')).toHaveText(
    'gpt-4o sees images, from Kasten’s list of known models.',
  );
  await settings.getByRole('combobox', { name: 'Sees images' }).selectOption('off');
  await expect(settings.getByTestId('model-vision')).toHaveText('gpt-4o takes text only, as set here.');
  await settings.getByRole('button', { name: 'Close settings' }).click();

  await app.dropFiles(app.composerArea, [drawing]);
  await expect(app.composerArea.getByTestId('attachment-chip')).toContainText(
    '“plan.png” cannot be sent: this model cannot see images (gpt-4o takes text only).',
  );
  expect(model.chatRequests).toHaveLength(0);
});
