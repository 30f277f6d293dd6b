import type { AppEvents } from '../app-events';
import { VaultIndex } from '../index/vault-index';
import { openAppDatabase } from '../storage/app-database';
import { RecentVaults } from '../vault/recent-vaults';
import { VaultService } from '../vault/vault-service';
import type { AppOptions } from './app-options';
import { lazyIndexWorkers } from './lazy-index-workers';

/** The app database, the vault's files and their index: what every other service stands on. */
export function vaultServices(options: AppOptions, events: AppEvents) {
  /** What opening the database had to repair, told once the app starts. */
  const notices: string[] = [];
  const db = openAppDatabase(options.dataDir, (notice) => notices.push(notice));
  const recent = new RecentVaults(db);
  const workers = lazyIndexWorkers(options.indexWorker ?? null);
  const index = new VaultIndex({
    dataDir: options.dataDir,
    events,
    workers,
    onNotice: (notice) => console.warn(notice),
    afterColdIndex: options.afterColdIndex,
  });
  const vault = new VaultService({
    events,
    recent,
    listener: index,
    pickFolder: options.pickFolder,
    watch: options.watch ?? true,
  });
  /** The open vault's path; null when none is open. */
  const openPath = () => vault.summary()?.path ?? null;
  const readNote = (path: string) => vault.readNote(path);
  return { db, notices, recent, workers, index, vault, openPath, readNote };
}

export type VaultServices = ReturnType<typeof vaultServices>;
