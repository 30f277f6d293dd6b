import { existsSync } from 'node:fs';
import type { Handlers } from '../shared/contract';
import type { AppInfo } from '../shared/domain';
import { appHandlers } from './app-handlers';
import { AppEvents } from './app-events';
import type { ChatExporter } from './export/chat-export';
import type { ChatService } from './chat/chat-service';
import type { AppOptions } from './composition/app-options';
import { chatServices } from './composition/chat-services';
import { promptServices } from './prompts/prompt-services';
import { embeddingServices, type EmbeddingServices } from './composition/embedding-services';
import { imageServices } from './composition/image-services';
import { itemServices } from './composition/item-services';
import { modelServices } from './composition/model-services';
import { requestServices } from './composition/request-services';
import { vaultServices } from './composition/vault-services';
import type { VaultIndex } from './index/vault-index';
import { configureMcpRuntime, followItemChanges } from './items/item-handlers';
import type { ModelService } from './llm/model-service';
import type { SessionContext } from './request/session-context';
import type { SummaryQueue } from './summaries/summary-queue';
import { ensureSampleVault } from './vault/sample-vault';
import type { VaultService } from './vault/vault-service';

export type { AppOptions } from './composition/app-options';

/**
 * Everything a host needs — the contract's handlers, the push events and the lifecycle — and, for tests
 * that drive the services as the app wires them, the services themselves. Hosts reach the services only
 * through `handlers`.
 */
export interface KastenApp {
  readonly handlers: Handlers;
  readonly events: AppEvents;
  readonly vault: VaultService;
  readonly index: VaultIndex;
  readonly chat: ChatService;
  /** The context engine's view of sessions: the meter, compaction, strategies. */
  readonly context: SessionContext;
  readonly models: ModelService;
  readonly summaries: SummaryQueue;
  /** Semantic search, related notes and the vault's vectors. */
  readonly embeddings: EmbeddingServices;
  /** Chats exported to notes in the vault. */
  readonly exporter: ChatExporter;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The composition root: builds every service in dependency order, each step from the ones before it,
 * and nothing that reaches a later one. Where two services need each other, one tells the other on the
 * event bus (see model-services and embedding-services), or is asked per call (the meter's pinned tokens
 * in the items' handlers). Every host goes through here.
 */
export function createApp(options: AppOptions): KastenApp {
  const events = new AppEvents();
  const vaults = vaultServices(options, events);
  const llm = modelServices(options, vaults, events);
  const embeddings = embeddingServices(options, vaults, llm, events);
  const request = requestServices(vaults.db, llm);
  const images = imageServices(options, vaults, llm, request);
  const items = itemServices(options, vaults, request, embeddings.texts, images);
  const prompts = promptServices(vaults, request, embeddings.texts, llm.models, items.service, options.now);
  const conversations = chatServices(options, {
    vaults,
    llm,
    embeddings,
    request,
    items,
    images,
    prompts,
    events,
  });

  const info: AppInfo = {
    name: 'Kasten',
    version: options.version,
    host: options.host,
    platform: process.platform,
    dataDir: options.dataDir,
    canPickFolder: options.pickFolder !== undefined,
  };
  const handlers = appHandlers(info, {
    vaults,
    llm,
    embeddings,
    items,
    images,
    conversations,
    prompts,
    events,
  });
  const stopFollowing = followItemChanges({ service: items.service, mcp: items.mcp, events });
  const { db, index, vault, recent, workers } = vaults;
  const { chat, context, exporter } = conversations;

  return {
    handlers,
    events,
    vault,
    index,
    chat,
    context,
    models: llm.models,
    summaries: llm.summaries,
    embeddings,
    exporter,
    async start() {
      for (const notice of vaults.notices) console.warn(notice);
      chat.start();
      llm.start();
      embeddings.start();
      await configureMcpRuntime(items.mcp, items.mcpSettings);
      const initial =
        options.vault ??
        recent.list().find((entry) => existsSync(entry.path))?.path ??
        (await ensureSampleVault(options.resourcesDir, options.dataDir));
      await vault.open(initial);
      if (options.waitForIndex) await index.whenIdle();
      // A host that stays up shares its searches' ranking with the worker threads once the first pass is
      // done (a pass that parsed notes started them already); a small vault's searches rank here.
      else void index.whenIdle().then(() => workers.warm(index.status().report?.notes ?? 0));
    },
    async dispose() {
      // Answers stop at once, whatever else is slow to close: each saves what it streamed.
      chat.stopAll();
      llm.stop();
      await embeddings.stop();
      // The answers' saves are done before the database closes.
      await chat.dispose();
      stopFollowing();
      await items.stop();
      await vault.dispose();
      await index.close();
      await workers.dispose();
      db.close();
    },
  };
}
