import { createApp, type KastenApp } from '../../src/main/app';
import { builtParserWorker } from './built-worker';
import { resourcesDir } from './temp-vault';

/** The app as the CLI builds it, started on `vault` with its index brought up to date. */
export async function startIndexedApp(dataDir: string, vault: string, watch = false): Promise<KastenApp> {
  const app = createApp({
    host: 'cli',
    version: '0.0.0',
    dataDir,
    resourcesDir,
    vault,
    watch,
    parserWorker: builtParserWorker,
  });
  try {
    await app.start();
    await app.index.whenIdle();
  } catch (error) {
    await app.dispose();
    throw error;
  }
  return app;
}
