import { expect, test, type Locator } from '@playwright/test';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { readmeScreenshot } from '../support/readme-screenshot';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

interface ExpectedLink {
  source: string;
  line: number;
  raw: string;
  status: string;
}

let server: RunningServer;
let workspace: string;

test.beforeEach(async () => {
  // The broken fixture vault, with the bad-files fixture's files that warn in a folder of it.
  workspace = mkdtempSync(join(tmpdir(), 'kasten-e2e-health-'));
  const vault = join(workspace, 'vault');
  cpSync(join(fixtures, 'vaults', 'broken'), vault, { recursive: true });
  for (const name of ['binary.md', 'latin1.md', 'bad yaml.md']) {
    cpSync(join(fixtures, 'vaults', 'bad-files', name), join(vault, 'odd', name));
  }
  server = await startKastenServer({ vault });
});
test.afterEach(async () => {
  await server.stop();
  rmSync(workspace, { recursive: true, force: true });
});

test('the health view lists every broken link, broken heading and warning of the fixture vaults', async ({
  page,
}) => {
  const app = new AppPage(page);
  const expected = JSON.parse(
    readFileSync(join(fixtures, 'expected', 'broken.links.json'), 'utf8'),
  ) as ExpectedLink[];
  const broken = expected.filter((link) => link.status === 'broken');
  const brokenSubpaths = expected.filter((link) => link.status === 'broken-subpath');

  await page.goto(server.url);
  await expect(page.getByTestId('health-button')).toHaveText(
    `⚠ ${broken.length + brokenSubpaths.length + 3} issues`,
  );
  await page.getByTestId('health-button').click();
  const health = page.getByTestId('health-view');

  /** The section lists exactly these links, each once, by its text and where it is. */
  const expectListed = async (items: Locator, links: ExpectedLink[]) => {
    await expect(items).toHaveCount(links.length);
    for (const link of links) {
      await expect(
        items.filter({ hasText: `${link.source}:${link.line}` }).filter({ hasText: link.raw }),
      ).toHaveCount(1);
    }
  };
  const brokenItems = health.getByTestId('health-broken-link');
  await expectListed(brokenItems, broken);
  const subpathItems = health.getByTestId('health-broken-subpath');
  await expectListed(subpathItems, brokenSubpaths);
  // Each says why, in words.
  await expect(brokenItems.filter({ hasText: '[[../Target]]' }).first()).toContainText('outside the vault');
  await expect(subpathItems.filter({ hasText: '[[Target#^no-block]]' })).toContainText('No block ^no-block');

  const warnings = health.getByTestId('health-warning');
  await expect(warnings).toHaveCount(3);
  await expect(warnings.filter({ hasText: 'odd/binary.md' })).toContainText('binary');
  await expect(warnings.filter({ hasText: 'odd/latin1.md' })).toContainText('UTF-8');
  await expect(warnings.filter({ hasText: 'odd/bad yaml.md' })).toContainText('YAML');
  await readmeScreenshot(page, 'health');

  // An issue opens its note; a warning opens the file it is about.
  await subpathItems.filter({ hasText: '[[#Nowhere here]]' }).click();
  await expect(app.viewerTitle()).toHaveText('Deeper');
  await page.getByTestId('health-button').click();
  await warnings.filter({ hasText: 'odd/bad yaml.md' }).click();
  await expect(app.viewerTitle()).toHaveText('bad yaml');
  // A binary file named .md is not shown as text: the viewer says what it is.
  await page.getByTestId('health-button').click();
  await warnings.filter({ hasText: 'odd/binary.md' }).click();
  await expect(app.viewer.getByRole('alert')).toContainText('is a binary file, not Markdown text');
});
