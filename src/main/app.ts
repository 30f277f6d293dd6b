import { existsSync } from 'node:fs';
import type { Handlers } from '../shared/contract';
import type { AppInfo, HostKind } from '../shared/domain';
import type { ModelSettings } from '../shared/chat-domain';
import { AppError } from './app-error';
import { AppEvents } from './app-events';
import { ChatService } from './chat/chat-service';
import { ChatStore } from './chat/chat-store';
import { createChatModel } from './llm/ai-sdk-model';
import { apiKeyFrom, ModelSettingsStore } from './llm/model-settings';
import { createParserPool } from './index/parser-pool';
import { VaultIndex } from './index/vault-index';
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
  /** The built parser worker (`parse-worker.js`); without one notes are parsed on the main thread. */
  parserWorker?: string;
  /** Model settings for this run that win over the stored ones (CLI flags). */
  model?: Partial<ModelSettings>;
  /** Where API keys are read from (environment variables named in the model settings). */
  env?: NodeJS.ProcessEnv;
}

/** Everything a host needs: the contract's handlers, the push events, and the lifecycle. */
export interface KastenApp {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly vault: VaultService;
  readonly index: VaultIndex;
  readonly chat: ChatService;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** The composition root: builds every service in order. Every host goes through here. */
export function createApp(options: AppOptions): KastenApp {
  const events = new AppEvents();
  const notices: string[] = [];
  const db: SqliteDatabase = openAppDatabase(options.dataDir, (notice) => notices.push(notice));
  const recent = new RecentVaults(db);
  const pool = createParserPool(options.parserWorker ?? null);
  const index = new VaultIndex({
    dataDir: options.dataDir,
    events,
    pool,
    onNotice: (notice) => console.warn(notice),
  });
  const vault = new VaultService({
    events,
    recent,
    listener: index,
    pickFolder: options.pickFolder,
    watch: options.watch ?? true,
  });

  const modelSettings = new ModelSettingsStore(db, options.model);
  const chat = new ChatService({
    store: new ChatStore(db),
    events,
    vault: () => {
      const open = vault.summary();
      if (!open) throw new AppError('no-vault', 'No vault is open.');
      return { root: open.path, name: open.name, tools: { readNote: (path) => vault.readNote(path), index } };
    },
    model: () => {
      const settings = modelSettings.get();
      if (!settings.model) {
        throw new AppError(
          'invalid-input',
          'No chat model is chosen yet: pick a provider and a model in Settings.',
        );
      }
      return createChatModel(settings, apiKeyFrom(settings, options.env));
    },
    // Notes linked in a message may fill 40 % of the context window; the rest is for the conversation.
    referenceBudget: () => Math.floor((modelSettings.get().contextWindow ?? 8192) * 0.4),
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
    'notes:read': async ({ path }) => {
      const note = await vault.readNote(path);
      return { ...note, links: index.linksIn(path, note.content) };
    },
    'attachments:read': async ({ path }) => vault.readAttachment(path),
    'vault:health': async () => index.health(),
    'index:status': async () => index.status(),
    'index:cancel': async () => {
      index.cancel();
      return null;
    },
    'search:notes': async (request) => index.search(request),
    'search:tags': async () => index.tags(),
    'links:outgoing': async ({ path }) => index.outgoing(path),
    'links:backlinks': async ({ path }) => index.backlinks(path),
    'chat:send': async (input) => {
      const { done: _done, ...started } = await chat.send(input);
      return { ...started, userMessage: started.userMessage! };
    },
    'chat:stop': async ({ sessionId }) => {
      chat.stop(sessionId);
      return null;
    },
    'chat:retry': async ({ sessionId }) => {
      const { session, assistantMessage } = await chat.retry(sessionId);
      return { session, assistantMessage };
    },
    'sessions:list': async (input) => chat.list(input?.query),
    'sessions:get': async ({ id }) => chat.session(id),
    'sessions:rename': async ({ id, title }) => {
      chat.rename(id, title);
      return null;
    },
    'sessions:delete': async ({ id }) => {
      chat.delete(id);
      return null;
    },
    'sessions:restore': async ({ id }) => {
      chat.restore(id);
      return null;
    },
    'models:settings': async () => modelSettings.get(),
    'models:configure': async (settings) => modelSettings.set(settings),
    'links:resolve': async ({ links, from }) => links.map((link) => index.resolve(link, from ?? '')),
    'notes:titles': async () => index.titles(),
  };

  return {
    handlers,
    events,
    vault,
    index,
    chat,
    async start() {
      for (const notice of notices) console.warn(notice);
      chat.start();
      const initial =
        options.vault ??
        recent.list().find((entry) => existsSync(entry.path))?.path ??
        (await ensureSampleVault(options.resourcesDir, options.dataDir));
      await vault.open(initial);
    },
    async dispose() {
      chat.stopAll();
      await vault.dispose();
      await index.close();
      await pool.dispose();
      db.close();
    },
  };
}
