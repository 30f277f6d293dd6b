import { existsSync } from 'node:fs';
import type { Handlers } from '../shared/contract';
import type { AppInfo, HostKind } from '../shared/domain';
import { AppEvents } from './app-events';
import { openAppDatabase } from './storage/app-database';
import type { SqliteDatabase } from './storage/database';
import { RecentVaults } from './vault/recent-vaults';
import { ensureSampleVault } from './vault/sample-vault';
import { VaultService, type FolderPicker } from './vault/vault-service';

export interface AppOptions {
  host: HostKind;
  version: string;
  dataDir: string;
  /** Folder holding `sample-vault/`. */
  resourcesDir: string;
  /** Vault to open at start; otherwise the most recent one, otherwise the sample vault. */
  vault?: string;
  pickFolder?: FolderPicker;
  /** Watch the open vault (default true). */
  watch?: boolean;
}

/** Everything a host needs: the contract's handlers, the push events, and the lifecycle. */
export interface KastenApp {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly vault: VaultService;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** The composition root: builds every service in order. Every host goes through here. */
export function createApp(options: AppOptions): KastenApp {
  const events = new AppEvents();
  const notices: string[] = [];
  const db: SqliteDatabase = openAppDatabase(options.dataDir, (notice) => notices.push(notice));
  const recent = new RecentVaults(db);
  const vault = new VaultService({
    events,
    recent,
    pickFolder: options.pickFolder,
    watch: options.watch ?? true,
  });

  const info: AppInfo = {
    name: 'Kasten',
    version: options.version,
    host: options.host,
    platform: process.platform,
    dataDir: options.dataDir,
    canPickFolder: options.pickFolder !== undefined,
  };

  const handlers: Handlers = {
    'app:info': async () => info,
    'vault:open': async (input) => vault.open(input?.path),
    'vault:recent': async () => recent.list(),
    'vault:tree': async () => vault.tree(),
    'notes:read': async ({ path }) => vault.readNote(path),
    'attachments:read': async ({ path }) => vault.readAttachment(path),
  };

  return {
    handlers,
    events,
    vault,
    async start() {
      for (const notice of notices) console.warn(notice);
      const initial =
        options.vault ??
        recent.list().find((entry) => existsSync(entry.path))?.path ??
        (await ensureSampleVault(options.resourcesDir, options.dataDir));
      await vault.open(initial);
    },
    async dispose() {
      await vault.dispose();
      db.close();
    },
  };
}
