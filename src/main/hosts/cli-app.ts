import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ModelSettings } from '../../shared/chat-domain';
import { createApp, type AppOptions, type KastenApp } from '../app';
import { version } from '../version';

export interface CliAppEnvironment {
  dataDir: string;
  resourcesDir: string;
  indexWorker?: string;
}

/**
 * The app as a one-shot CLI command runs it: the vault opened without watching and its index brought
 * up to date. The caller disposes it.
 */
export async function openCliApp(
  vault: string,
  env: CliAppEnvironment,
  model?: Partial<ModelSettings>,
  extra: Pick<AppOptions, 'contextStrategy'> = {},
): Promise<KastenApp> {
  const root = resolve(vault);
  const info = await stat(root).catch(() => null);
  if (!info) throw new Error(`There is no folder at ${root}.`);
  if (!info.isDirectory()) throw new Error(`${root} is not a folder.`);
  const app = createApp({
    host: 'cli',
    version,
    dataDir: env.dataDir,
    resourcesDir: env.resourcesDir,
    vault: root,
    watch: false,
    indexWorker: env.indexWorker,
    model,
    ...extra,
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
