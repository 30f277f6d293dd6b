import { createApp, type AppOptions, type KastenApp } from '../../src/main/app';
import { builtIndexWorker } from './built-worker';
import { resourcesDir } from './temp-vault';

/** The app as the CLI builds it on `vault` (parsing in the built worker, no watcher), not started yet. */
export function createIndexedApp(
  dataDir: string,
  vault: string,
  options: Partial<AppOptions> = {},
): KastenApp {
  return createApp({
    host: 'cli',
    version: '0.0.0',
    dataDir,
    resourcesDir,
    vault,
    watch: false,
    indexWorker: builtIndexWorker,
    ...options,
  });
}

/** The same app, started, with its index brought up to date. */
export async function startIndexedApp(
  dataDir: string,
  vault: string,
  options: Partial<AppOptions> = {},
): Promise<KastenApp> {
  const app = createIndexedApp(dataDir, vault, options);
  try {
    await app.start();
    await app.index.whenIdle();
  } catch (error) {
    await app.dispose();
    throw error;
  }
  return app;
}
