import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** The main window as a user sees it. */
export class AppPage {
  readonly tree: Locator;
  readonly viewer: Locator;
  readonly statusBar: Locator;
  readonly chat: Locator;
  readonly references: Locator;
  /** The right sidebar's Context tab: what the chat holds besides its messages. */
  readonly chatContext: Locator;
  readonly composer: Locator;
  /** The composer with its chips, suggestion list and buttons: where files are dropped. */
  readonly composerArea: Locator;
  readonly contextMeter: Locator;
  readonly contextPopover: Locator;

  constructor(readonly page: Page) {
    this.tree = page.getByRole('tree', { name: 'Notes' });
    this.viewer = page.getByRole('region', { name: 'Note viewer' });
    this.statusBar = page.getByRole('contentinfo', { name: 'Status' });
    this.chat = page.getByRole('region', { name: 'Chat' });
    this.references = page.getByRole('complementary', { name: 'References' });
    this.chatContext = page.getByRole('complementary', { name: 'Chat context' });
    this.composer = page.getByTestId('composer');
    this.composerArea = page.getByTestId('composer-area');
    this.contextMeter = this.statusBar.getByTestId('context-meter');
    this.contextPopover = page.getByRole('dialog', { name: 'Context breakdown' });
  }

  note(name: string): Locator {
    return this.tree.getByRole('button', { name, exact: true });
  }

  folder(name: string): Locator {
    return this.tree.locator('.tree-folder', { hasText: name });
  }

  /** A folder's row in the tree, by its name (followed by its count of notes). */
  folderRow(name: string): Locator {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return this.tree.getByRole('treeitem', { name: new RegExp(`^${escaped}( \\d+)?$`) });
  }

  /** Opens each closed folder on `path` (`projects/alpha`): the tree starts with its folders closed. */
  async openFolders(path: string): Promise<void> {
    for (const name of path.split('/')) {
      const row = this.folderRow(name);
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.getByRole('button').click();
      await expect(row).toHaveAttribute('aria-expanded', 'true');
    }
  }

  viewerTitle(): Locator {
    return this.viewer.locator('header').getByRole('heading', { level: 2 });
  }

  wikilink(text: string): Locator {
    return this.viewer.locator('a.wikilink', { hasText: text });
  }

  /** Shows a tab of the right sidebar: the references, or the chat's context. */
  async showTab(name: 'References' | 'Context'): Promise<void> {
    await this.page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  }

  /** Drops files from disk on `target` as a file manager would: dragenter, dragover, then drop. */
  async dropFiles(target: Locator, paths: string[]): Promise<void> {
    const dataTransfer = await this.filesTransfer(paths);
    for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
  }

  /** Pastes files from disk into `target`, as after copying them in a file manager. */
  async pasteFiles(target: Locator, paths: string[]): Promise<void> {
    const dataTransfer = await this.filesTransfer(paths);
    await target.evaluate((element, clipboardData) => {
      // Runs in the page; this file is type-checked without the DOM's types.
      const page = globalThis as unknown as {
        ClipboardEvent: new (type: string, init: object) => Event;
      };
      element.dispatchEvent(
        new page.ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
      );
    }, dataTransfer);
  }

  /** A DataTransfer in the page holding the files at `paths`. */
  private async filesTransfer(paths: string[]) {
    const files = paths.map((path) => ({
      name: basename(path),
      type: path.endsWith('.pdf') ? 'application/pdf' : path.endsWith('.md') ? 'text/markdown' : 'text/plain',
      data: readFileSync(path).toString('base64'),
    }));
    return this.page.evaluateHandle((list) => {
      // Runs in the page; this file is type-checked without the DOM's types.
      const page = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
      const transfer = new page.DataTransfer();
      for (const file of list) {
        const bytes = Uint8Array.from(atob(file.data), (character) => character.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return transfer;
    }, files);
  }
}

/** Sends a message with Enter and waits for its answer to be complete. */
export async function askAndWait(app: AppPage, text: string): Promise<void> {
  const answers = app.chat.getByTestId('assistant-message');
  const before = await answers.count();
  await app.composer.fill(text);
  await app.composer.press('Enter');
  await expect(answers).toHaveCount(before + 1);
  await expect(answers.last()).toHaveAttribute('data-status', 'complete');
}
