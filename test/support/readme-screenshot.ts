import { join } from 'node:path';
import type { Page } from '@playwright/test';

const docs = join(import.meta.dirname, '..', '..', 'docs');

/**
 * The README's screenshot `docs/screenshot-<name>.png`, taken where a test has just checked that the page
 * shows what its caption says. Written only by `npm run screenshots` (KASTEN_SCREENSHOTS=1), so a test
 * run leaves the repository as it was.
 */
export async function readmeScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.KASTEN_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: join(docs, `screenshot-${name}.png`) });
}
