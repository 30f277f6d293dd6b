import { expect, test, type Locator } from '@playwright/test';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';

const vault = join(import.meta.dirname, '..', 'fixtures', 'vaults', 'chat');

let server: RunningServer;
test.beforeEach(async () => {
  server = await startKastenServer({ vault });
});
test.afterEach(async () => {
  await server.stop();
});

/** How far apart the vertical middles of the header's visible controls are: a pixel or two in one row. */
async function middlesSpread(header: Locator): Promise<number> {
  const middles: number[] = [];
  for (const control of await header.locator(':scope > *').all()) {
    const box = await control.boundingBox();
    if (box && box.width > 0) middles.push(box.y + box.height / 2);
  }
  return Math.max(...middles) - Math.min(...middles);
}

test('with a note open the chat header is one row at 1440, 1280 and 1024 px; the rest is a keyboard-reachable menu', async ({
  page,
}) => {
  const app = new AppPage(page);
  await page.goto(server.url);
  const header = app.chat.locator('header');
  const chats = header.getByRole('button', { name: 'Chats' });
  const more = header.getByRole('button', { name: 'More chat actions' });

  // With the whole width to itself the header shows every control.
  await expect(header.getByTestId('allow-writes')).toBeVisible();
  await expect(header.getByRole('button', { name: 'Export', exact: true })).toBeVisible();
  await expect(more).toHaveCount(0);

  await app.note('Gardening').click();
  await expect(app.viewerTitle()).toHaveText('Gardening');
  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(more).toBeVisible();
    expect(await middlesSpread(header), `one row at ${width}px`).toBeLessThan(4);
    const headerBox = await header.boundingBox();
    const chatsBox = await chats.boundingBox();
    // One control's height and the header's padding: no second row.
    expect(headerBox!.height, `header height at ${width}px`).toBeLessThan(chatsBox!.height * 1.6);
  }

  // The menu is a button that says it opens a popup, reached with Tab and closed with Escape.
  await expect(more).toHaveAttribute('aria-haspopup', 'dialog');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await chats.focus();
  await page.keyboard.press('Tab');
  await expect(more).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('dialog', { name: 'More chat actions' });
  await expect(menu.getByTestId('allow-writes')).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Export', exact: true })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(menu.getByTestId('allow-writes')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
});
