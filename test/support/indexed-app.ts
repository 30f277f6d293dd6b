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

/** The app on the scripted model server at `modelUrl`, with `contextWindow` set (null: the server's). */
export function startScriptedApp(
  workspace: { dataDir: string; vault: string },
  modelUrl: string,
  contextWindow: number | null = null,
): Promise<KastenApp> {
  return startIndexedApp(workspace.dataDir, workspace.vault, {
    model: {
      provider: 'openai-compatible',
      baseUrl: `${modelUrl}/v1`,
      model: 'scripted-model',
      contextWindow,
    },
  });
}
