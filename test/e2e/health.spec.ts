import { expect, test } from '@playwright/test';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { AppPage } from '../support/app-page';
import { startKastenServer, type RunningServer } from '../support/kasten-server';
import { readmeScreenshot } from '../support/readme-screenshot';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

interface ExpectedLink {
  source: string;
  line: number;
  raw: string;
  target: string;
  subpath: string | null;
  resolved: string | null;
  status: string;
}

/** The group a link is listed under: its target, or for a broken heading or block, the note and the subpath. */
function groupOf(link: ExpectedLink): string {
  if (link.status !== 'broken-subpath') return link.target;
  return `${link.target || basename(link.resolved!, '.md')}#${link.subpath}`;
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

test('the health view groups every broken link and broken heading of the fixture vault by target, and lists its warnings', async ({
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
  const sections = health.getByTestId('health-section');
  await expect(sections).toHaveText([
    /Broken links\s*8 links to 7 targets/,
    /Broken headings and blocks\s*6 links to 6 targets/,
    /Warnings\s*3 files/,
  ]);

  /** Each link is listed, once, by where it is and as written, in the group of its target. */
  const groups = health.getByTestId('health-group');
  for (const links of [broken, brokenSubpaths]) {
    for (const link of links) {
      const target = new RegExp(`^${groupOf(link).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      const group = groups.filter({ has: page.locator('.health-target', { hasText: target }) });
      await expect(group).toHaveCount(1);
      await group.click();
      const items = health.getByTestId('health-link');
      const inGroup = links.filter((other) => groupOf(other) === groupOf(link));
      await expect(items).toHaveCount(inGroup.length);
      await expect(
        items.filter({ hasText: `${link.source}:${link.line}` }).filter({ hasText: link.raw }),
      ).toHaveCount(1);
      await group.click();
    }
  }
  // Two links to one missing note are one group; a group says why once for all its links.
  await expect(groups.filter({ hasText: 'Nowhere —' })).toContainText('Nowhere — 2 links in 1 note');
  await expect(groups.filter({ hasText: '../Target' }).first()).toContainText('outside the vault');
  await expect(groups.filter({ hasText: 'Target#^no-block' })).toContainText('No block ^no-block');

  const warnings = health.getByTestId('health-warning');
  await expect(warnings).toHaveCount(3);
  await expect(warnings.filter({ hasText: 'odd/binary.md' })).toContainText('binary');
  await expect(warnings.filter({ hasText: 'odd/latin1.md' })).toContainText('UTF-8');
  await expect(warnings.filter({ hasText: 'odd/bad yaml.md' })).toContainText('YAML');
  await readmeScreenshot(page, 'health');

  // An issue opens its note; a warning opens the file it is about.
  await groups.filter({ hasText: 'Deeper#Nowhere here' }).click();
  await health.getByTestId('health-link').filter({ hasText: '[[#Nowhere here]]' }).click();
  await expect(app.viewerTitle()).toHaveText('Deeper');
  await page.getByTestId('health-button').click();
  await warnings.filter({ hasText: 'odd/bad yaml.md' }).click();
  await expect(app.viewerTitle()).toHaveText('bad yaml');
  // A binary file named .md is not shown as text: the viewer says what it is.
  await page.getByTestId('health-button').click();
  await warnings.filter({ hasText: 'odd/binary.md' }).click();
  await expect(app.viewer.getByRole('alert')).toContainText('is a binary file, not Markdown text');
});
