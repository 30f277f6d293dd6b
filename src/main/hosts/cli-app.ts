import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ModelSettings } from '../../shared/chat-domain';
import type { EmbeddingSettings } from '../../shared/embedding-domain';
import type { AppOptions, KastenApp } from '../app';
import { version } from '../version';
import { call, type CliHandlers } from './cli-call';

export interface CliAppEnvironment {
  dataDir: string;
  resourcesDir: string;
  indexWorker?: string;
  /** The embedding model for this run (`--embed-*` flags), over the stored settings. */
  embeddings?: Partial<EmbeddingSettings>;
}

/**
 * What a CLI command has of the app, as the other hosts do: the contract's handlers (through `call`),
 * the push events, and the end of the run.
 */
export type CliApp = CliHandlers & Pick<KastenApp, 'events' | 'dispose'>;

/**
 * The app as a one-shot CLI command runs it: the vault opened without watching and its index brought
 * up to date. The caller disposes it.
 */
export async function openCliApp(
  vault: string,
  env: CliAppEnvironment,
  model?: Partial<ModelSettings>,
  extra: Pick<AppOptions, 'contextStrategy' | 'writes' | 'vision' | 'allowPrivateUrls'> = {},
): Promise<CliApp> {
  const root = resolve(vault);
  const info = await stat(root).catch(() => null);
  if (!info) throw new Error(`There is no folder at ${root}.`);
  if (!info.isDirectory()) throw new Error(`${root} is not a folder.`);
  // Loaded here, not at start: `kasten info` and a usage error need none of the services.
  const { createApp } = await import('../app');
  const app = createApp({
    host: 'cli',
    version,
    dataDir: env.dataDir,
    resourcesDir: env.resourcesDir,
    vault: root,
    watch: false,
    waitForIndex: true,
    indexWorker: env.indexWorker,
    model,
    embeddings: env.embeddings,
    ...extra,
  });
  try {
    await app.start();
  } catch (error) {
    await app.dispose();
    throw error;
  }
  return app;
}

/** A note given by path or by name, the way a wikilink would find it; throws when there is none. */
export async function findNote(app: CliHandlers, note: string): Promise<string> {
  const [resolution] = await call(app, 'links:resolve', {
    links: [{ target: note.replace(/^\/+/, ''), subpath: null }],
  });
  if (!resolution || resolution.path === null || resolution.kind !== 'note') {
    throw new Error(`No note "${note}" in this vault.`);
  }
  return resolution.path;
}
