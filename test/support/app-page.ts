import type { Locator, Page } from '@playwright/test';

/** The main window as a user sees it. */
export class AppPage {
  readonly tree: Locator;
  readonly viewer: Locator;
  readonly statusBar: Locator;
  readonly chat: Locator;
  readonly references: Locator;
  readonly composer: Locator;
  readonly contextMeter: Locator;
  readonly contextPopover: Locator;

  constructor(readonly page: Page) {
    this.tree = page.getByRole('tree', { name: 'Notes' });
    this.viewer = page.getByRole('region', { name: 'Note viewer' });
    this.statusBar = page.getByRole('contentinfo', { name: 'Status' });
    this.chat = page.getByRole('region', { name: 'Chat' });
    this.references = page.getByRole('complementary', { name: 'References' });
    this.composer = page.getByTestId('composer');
    this.contextMeter = this.statusBar.getByTestId('context-meter');
    this.contextPopover = page.getByRole('dialog', { name: 'Context breakdown' });
  }

  note(name: string): Locator {
    return this.tree.getByRole('button', { name, exact: true });
  }

  folder(name: string): Locator {
    return this.tree.locator('.tree-folder', { hasText: name });
  }

  viewerTitle(): Locator {
    return this.viewer.locator('header').getByRole('heading', { level: 2 });
  }

  wikilink(text: string): Locator {
    return this.viewer.locator('a.wikilink', { hasText: text });
  }
}
