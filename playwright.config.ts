import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './test/support/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Vitest's reports live in test-results/ too; Playwright cleans only its own output folder.
  outputDir: 'test-results/e2e-artifacts',
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    // The README's screenshots show a laptop screen; the tests run on a roomier one.
    viewport:
      process.env.KASTEN_SCREENSHOTS === '1' ? { width: 1280, height: 800 } : { width: 1440, height: 900 },
    locale: 'en-US',
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
