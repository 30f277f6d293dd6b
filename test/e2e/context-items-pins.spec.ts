import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { AppPage } from '../support/app-page';
import { readmeScreenshot } from '../support/readme-screenshot';
import { ask, contextItemsHost } from '../support/context-items-host';
import { sentText } from '../support/context-items-vault';

const host = contextItemsHost();

test.use({ viewport: { width: 1280, height: 800 } });

test('a note pinned from a reference card by keyboard, and one from the viewer, go into the next request; unpinning takes one out', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
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
  await expect(pin).toHaveAttribute('title', /^Pin to this chat/);
  await page.keyboard.press('Enter');
  // Pinned, the button says what a click does now.
  const unpin = card.getByRole('button', { name: 'Unpin “Gardening” from this chat' });
  await expect(unpin).toHaveAttribute('aria-pressed', 'true');
  await expect(unpin).toHaveAttribute('title', /^Unpin from this chat/);
  await expect(unpin).toBeFocused();
  await expect(app.viewer).toBeHidden();

  await app.note('Atomic notes').click();
  await app.viewer.getByRole('button', { name: 'Pin “Atomic notes” to this chat' }).click();
  await expect(
    app.viewer.getByRole('button', { name: 'Unpin “Atomic notes” from this chat' }),
  ).toHaveAttribute('aria-pressed', 'true');

  await app.showTab('Context');
  const pinned = app.chatContext.getByTestId('pinned-item');
  await expect(pinned).toHaveText([/Gardening.*Gardening\.md.*\d+ tokens/, /Atomic notes.*\d+ tokens/]);
  await expect(page.getByTestId('context-count')).toHaveText('2');
  await page.screenshot({ path: 'test-results/context-items/panel-pinned.png' });
  await readmeScreenshot(page, 'context-items');

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

test('at 1024×700 the Context tab opens in the drawer, and a manual rule switched on there goes with the first message', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const app = new AppPage(page);
  await page.goto(host.server.url);
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
  expect(sentText(host.model.chatRequests.at(-1)!)).toContain('MANUAL-RULE');
});

test('a pinned note renamed on disk is followed and says where it was; a deleted one shows as gone', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(host.server.url);
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
  // Counted before the chat starts, as the meter counts them for the first request.
  await expect(pinned).toHaveText([/Gardening.*\d+ tokens/, /Atomic notes.*\d+ tokens/]);
  rmSync(join(host.workspace.vault, 'Atomic notes.md'));
  await expect(pinned.filter({ hasText: 'Atomic notes' })).toHaveAttribute('data-state', 'gone');
  await expect(pinned.filter({ hasText: 'Atomic notes' }).getByTestId('pinned-state')).toContainText('gone');
  renameSync(join(host.workspace.vault, 'Gardening.md'), join(host.workspace.vault, 'Garden plans.md'));
  await expect(pinned.filter({ hasText: 'Garden plans' }).getByTestId('pinned-state')).toHaveText(
    'moved from Gardening.md',
  );
  await page.screenshot({ path: 'test-results/context-items/panel-moved-gone.png' });
});
