import { existsSync } from 'node:fs';

/**
 * The Chromium the tests drive: `CHROMIUM_PATH`, else the system's `/usr/bin/chromium`, else
 * undefined so Playwright uses a browser of its own if one is installed.
 */
export function chromiumExecutable(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path as string));
}
