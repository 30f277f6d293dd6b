// The vault index and the embedding services composed as createApp (src/main/app.ts) composes them, in
// this process, with the embedding model given by the caller (a stub, or one against a scripted server)
// and no watcher, no background runs. For the retrieval and embedding-build benchmarks.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EmbeddingSettings } from '../../src/shared/embedding-domain.ts';
import type { EmbeddingModel } from '../../src/main/llm/embedding-model.ts';
import { builtIndexWorker } from '../../test/support/built-worker.ts';
import { writeSyntheticVault } from '../../test/support/synthetic-vault.ts';
import { addSourceRoot, registerSourceHooks } from './source-hooks.ts';

const thisCheckout = join(import.meta.dirname, '..', '..');

/** The services' modules, from this checkout's src/ or another's (`root`, for a comparison). */
async function loadSources(root = thisCheckout) {
  registerSourceHooks();
  addSourceRoot(root);
  const source = (path: string) => import(pathToFileURL(join(root, 'src', 'main', path)).href);
  const [
    events,
    database,
    workers,
    vaultIndex,
    recent,
    vaultService,
    service,
    settings,
    handlers,
    background,
  ] = await Promise.all([
    source('app-events.ts') as Promise<typeof import('../../src/main/app-events.ts')>,
    source('storage/app-database.ts') as Promise<typeof import('../../src/main/storage/app-database.ts')>,
    source('index/index-workers.ts') as Promise<typeof import('../../src/main/index/index-workers.ts')>,
    source('index/vault-index.ts') as Promise<typeof import('../../src/main/index/vault-index.ts')>,
    source('vault/recent-vaults.ts') as Promise<typeof import('../../src/main/vault/recent-vaults.ts')>,
    source('vault/vault-service.ts') as Promise<typeof import('../../src/main/vault/vault-service.ts')>,
    source('embeddings/embedding-service.ts') as Promise<
      typeof import('../../src/main/embeddings/embedding-service.ts')
    >,
    source('embeddings/embedding-settings.ts') as Promise<
      typeof import('../../src/main/embeddings/embedding-settings.ts')
    >,
    source('embeddings/embedding-handlers.ts') as Promise<
      typeof import('../../src/main/embeddings/embedding-handlers.ts')
    >,
    source('embeddings/background-embeddings.ts') as Promise<
      typeof import('../../src/main/embeddings/background-embeddings.ts')
    >,
  ]);
  return {
    ...events,
    ...database,
    ...workers,
    ...vaultIndex,
    ...recent,
    ...vaultService,
    ...service,
    ...settings,
    ...handlers,
    ...background,
  };
}

/**
 * A synthetic vault of `notes` notes, indexed, with an embedding service over `model`; written with the
 * sentences of `prose` when given (see writeSyntheticVault).
 */
export async function openEmbeddedVault(
  notes: number,
  seed: number,
  model: EmbeddingModel,
  prose?: readonly string[],
  /** Another checkout whose services to run (its src/); this one by default. */
  root?: string,
) {
  const sources = await loadSources(root);
  const base = mkdtempSync(join(tmpdir(), 'kasten-bench-retrieval-'));
  const vaultDir = join(base, 'vault');
  const dataDir = join(base, 'data');
  const written = writeSyntheticVault(vaultDir, { notes, seed, prose });
  const events = new sources.AppEvents();
  const db = sources.openAppDatabase(dataDir, (notice) => console.warn(notice));
  const workers = sources.createIndexWorkers(existsSync(builtIndexWorker) ? builtIndexWorker : null);
  const index = new sources.VaultIndex({ dataDir, events, workers, onNotice: console.warn });
  const recent = new sources.RecentVaults(db);
  const vault = new sources.VaultService({ events, recent, listener: index, watch: false });
  const settings: EmbeddingSettings = {
    enabled: true,
    provider: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:9/v1',
    model: model.name,
    apiKeyEnv: null,
  };
  const service = new sources.EmbeddingService({
    index,
    readNote: (path) => vault.readNote(path),
    settings: () => settings,
    model: () => model,
  });
  const background = new sources.BackgroundEmbeddings({ service, events, enabled: () => false });
  /** The contract's search and related notes with embeddings on (`on`) and off (`off`: by words). */
  const handlersWith = (enabled: boolean) =>
    sources.embeddingHandlers({
      service,
      settings: new sources.EmbeddingSettingsStore(db, { ...settings, enabled }),
      background,
      keys: { admit() {} },
      index,
    });
  await vault.open(vaultDir);
  await index.whenIdle();
  return {
    notes: index.titles().length,
    megabytes: written.bytes / 1048576,
    paths: index.titles().map((title) => title.path),
    service,
    on: handlersWith(true),
    off: handlersWith(false),
    async close() {
      await service.dispose();
      await vault.dispose();
      await index.close();
      await workers.dispose();
      db.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
