// Regenerates the README's screenshots: runs the end-to-end specs that take one (they call
// readmeScreenshot) with KASTEN_SCREENSHOTS=1, which makes them write docs/screenshot-*.png at the moment
// their test has checked what the caption says. Usage: npm run screenshots (builds first).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const specs = join(import.meta.dirname, '..', 'test', 'e2e');
const taking = readdirSync(specs)
  .filter((name) => name.endsWith('.spec.ts'))
  .filter((name) => readFileSync(join(specs, name), 'utf8').includes('readmeScreenshot('))
  .map((name) => join('test', 'e2e', name));

const run = spawnSync('npx', ['playwright', 'test', ...taking], {
  stdio: 'inherit',
  env: { ...process.env, KASTEN_SCREENSHOTS: '1' },
});
process.exit(run.status ?? 1);
