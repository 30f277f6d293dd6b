import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Handlers } from '../shared/contract';
import type { AppInfo, HostKind } from '../shared/domain';
import type { ModelSettings } from '../shared/chat-domain';
import { AppError } from './app-error';
import { AppEvents } from './app-events';
import { ChatService } from './chat/chat-service';
import { ChatStore } from './chat/chat-store';
import type { ToolVault } from './chat/note-locator';
import { ContextSettingsStore } from './chat/context-settings';
import { SessionContext } from './request/session-context';
import { createVaultWrites } from './chat/vault-writes';
import type { WriteMode } from './chat/write-permissions';
import { ContextEngine } from './request/context-engine';
import type { ContextStrategy } from '../shared/context-domain';
import { ApiKeys, type SecretBox } from './llm/api-keys';
import { asModelSettings } from './llm/embedding-model';
import { createEmbeddings, type Embeddings } from './embeddings/embedding-app';
import { ChatExporter } from './export/chat-export';
import { ChatDrafts } from './chat/chat-drafts';
import { coreHandlers } from './app-handlers';
import { createContextItems, type ContextItemsApp } from './items/items-app';
import type { EmbeddingSettings } from '../shared/embedding-domain';
import { ModelService } from './llm/model-service';
import { ModelSettingsStore } from './llm/model-settings';
import { SettingsTable } from './storage/settings-table';
import { createIndexWorkers } from './index/index-workers';
import { VaultIndex } from './index/vault-index';
import { openAppDatabase } from './storage/app-database';
import type { SqliteDatabase } from './storage/database';
import { BackgroundSummaries } from './summaries/background-summaries';
import { SummaryQueue } from './summaries/summary-queue';
import { SummaryStore } from './summaries/summary-store';
import { builtInTools } from './tools/built-in-tools';
import { ToolRegistry } from './tools/tool-registry';
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
  /** The built parser worker (`index-worker.js`); without one notes are parsed on the main thread. */
  indexWorker?: string;
  /** Model settings for this run that win over the stored ones (CLI flags). */
  model?: Partial<ModelSettings>;
  /** Embedding settings for this run that win over the stored ones (CLI flags). */
  embeddings?: Partial<EmbeddingSettings>;
  /** Embed the vault in the background when embeddings are on (default: yes, except one-shot CLI runs). */
  backgroundEmbeddings?: boolean;
  /** Where API keys are read from (environment variables named in the model settings). */
  env?: NodeJS.ProcessEnv;
  /** The host's encryption for stored API keys (the desktop app's keychain); without one keys come from env. */
  secretBox?: SecretBox | null;
  /** Summarize notes as they are used when the settings say so (default: yes, except one-shot CLI runs). */
  backgroundSummaries?: boolean;
  /** A strategy for every session of this run (`kasten ask --strategy`), instead of each session's own. */
  contextStrategy?: ContextStrategy;
  /** How long one summarization request of a compaction may take (tests shorten it). */
  compactionTimeoutMs?: number;
  /** Who decides on write tool calls: the user in the chat (default), or nobody may write (CLI). */
  writes?: WriteMode;
  /** The clock of the date and time the model is told (tests replay chats over days). */
  now?: () => Date;
}

/** Everything a host needs: the contract's handlers, the push events, and the lifecycle. */
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
  readonly embeddings: Embeddings;
  /** Chats exported to notes in the vault. */
  readonly exporter: ChatExporter;
  /** Rules, pinned notes, tools and MCP servers, attachments, the agent prompt. */
  readonly items: ContextItemsApp;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** The attachment reader's worker, built beside the parser's; null (read in process) when it is not there. */
function attachmentWorkerBeside(indexWorker: string | undefined): string | null {
  const file = indexWorker ? join(dirname(indexWorker), 'attachment-worker.js') : null;
  return file && existsSync(file) ? file : null;
}

/** The composition root: builds every service in order. Every host goes through here. */
export function createApp(options: AppOptions): KastenApp {
  const events = new AppEvents();
  const notices: string[] = [];
  const db: SqliteDatabase = openAppDatabase(options.dataDir, (notice) => notices.push(notice));
  const recent = new RecentVaults(db);
  const workers = createIndexWorkers(options.indexWorker ?? null);
  const index = new VaultIndex({
    dataDir: options.dataDir,
    events,
    workers,
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
  const keys = new ApiKeys(db, {
    box: options.secretBox ?? null,
    env: options.env,
    // A variable named on the command line is one the user chose to hand over, whatever its name.
    launchVariables: [options.model?.apiKeyEnv, options.embeddings?.apiKeyEnv].filter(
      (name): name is string => typeof name === 'string',
    ),
  });
  // A variable named on the command line goes to the server in force at launch, and only there.
  if (options.model?.apiKeyEnv) keys.pairAtLaunch(modelSettings.get());
  const models = new ModelService(
    modelSettings,
    keys,
    fetch,
    () => background.restart(),
    options.backgroundSummaries ?? options.host !== 'cli',
    {
      named: new SettingsTable(db),
      onWindowChanged: (window) => events.emit('models:windowChanged', window),
    },
  );
  const summaries = new SummaryQueue({
    store: new SummaryStore(db),
    model: () => models.summaryModel(),
    modelKey: () => models.summaryModelKey(),
    notes: (paths) => index.noteHashes(paths),
    readNote: (path) => vault.readNote(path),
    onProgress: (progress) => events.emit('summaries:progress', progress),
    onMissing: (path) => background.noteUsed(path),
  });
  const background = new BackgroundSummaries({
    queue: summaries,
    // Another process writing this vault's index summarizes it: one is enough.
    enabled: () => models.backgroundSummaries() && index.writes(),
  });
  const chatStore = new ChatStore(db);
  const tools = new ToolRegistry(builtInTools);
  const writes = createVaultWrites({
    db,
    events,
    vault: () => vault.summary()?.path ?? null,
    writer: vault,
    mode: options.writes ?? (options.host === 'cli' ? 'refused' : 'ask'),
  });
  const openVault = () => {
    const open = vault.summary();
    if (!open) throw new AppError('no-vault', 'No vault is open.');
    const tools: ToolVault = {
      readNote: (path: string) => vault.readNote(path),
      index,
      search: (request) => embeddings.search(request),
      related: (request) => embeddings.related(request),
      summary: (path: string) => summaries.summaryFor(path)?.text ?? '',
    };
    return { root: open.path, name: open.name, tools };
  };
  const embeddings = createEmbeddings({
    db,
    events,
    index,
    readNote: (path) => vault.readNote(path),
    keys,
    chat: { settings: () => modelSettings.get(), answering: () => chat.answering() },
    overrides: options.embeddings,
    background: options.backgroundEmbeddings ?? options.host !== 'cli',
  });
  if (options.embeddings?.apiKeyEnv) keys.pairAtLaunch(asModelSettings(embeddings.settings.get()));

  const items = createContextItems({
    db,
    events,
    vault: () => vault.summary()?.path ?? null,
    index,
    readNote: (path) => vault.readNote(path),
    registry: tools,
    vectors: embeddings.texts,
    attachmentWorker: attachmentWorkerBeside(options.indexWorker),
    tokens: (text) => context.tokensOf(text),
    pinnedTokens: (sessionId) => context.pinnedTokens(sessionId),
    attachmentRoom: () => context.attachmentRoom(),
  });
  const context = new SessionContext({
    engine: new ContextEngine({ calibrations: chatStore.contexts }),
    store: chatStore,
    settings: new ContextSettingsStore(db),
    window: () => models.contextWindowWithin(2_000),
    onWindowNamed: (tokens) => void models.windowNamed(tokens),
    onPromptTaken: (tokens) => void models.promptTaken(tokens),
    profile: () => {
      const settings = modelSettings.get();
      // Calibration is learned per server and model: the same model name elsewhere may count otherwise.
      return {
        key: `${settings.provider} ${settings.baseUrl} ${settings.model}`,
        model: settings.model,
        provider: settings.provider === 'anthropic' ? 'anthropic' : 'openai-compatible',
      };
    },
    // Writes the summaries of compactions; with no model chosen at all, chatModel() says so.
    model: () => models.summaryModel() ?? models.chatModel(),
    vault: openVault,
    tools,
    writesOffered: () => writes.permissions.offered(writes.mode),
    items: items.service,
    attachments: items.attachments,
    pendingFiles: (tokens) => items.intake.peek(tokens),
    strategy: options.contextStrategy,
    compactionTimeoutMs: options.compactionTimeoutMs,
    now: options.now,
  });
  const chat = new ChatService({
    store: chatStore,
    events,
    vault: openVault,
    model: () => models.chatModel(),
    indexed: () => index.whenIdle(),
    context,
    writes,
    tools: { registry: tools, mcp: items.mcp },
    items: items.service,
    attachments: { intake: items.intake, store: items.attachments },
  });
  const exporter = new ChatExporter({
    db,
    session: (id) => chat.session(id),
    vault: {
      root: () => openVault().root,
      prepareCreate: (path, content) => vault.prepareCreate(path, content),
      replaceNote: (path, content, hash) => vault.replaceNote(path, content, hash),
    },
  });

  const drafts = new ChatDrafts(db, () => openVault().root);

  const info: AppInfo = {
    name: 'Kasten',
    version: options.version,
    host: options.host,
    platform: process.platform,
    dataDir: options.dataDir,
    canPickFolder: options.pickFolder !== undefined,
  };

  const handlers: Handlers = {
    ...coreHandlers({
      info,
      vault,
      recent,
      index,
      chat,
      context,
      events,
      exporter,
      drafts,
      models,
      summaries,
    }),
    ...embeddings.handlers,
    ...writes.handlers,
    ...items.handlers,
  };
  const stopFollowing = events.on('index:changed', (change) => items.indexChanged(change));

  return {
    handlers,
    events,
    vault,
    index,
    chat,
    context,
    models,
    summaries,
    embeddings,
    exporter,
    items,
    async start() {
      for (const notice of notices) console.warn(notice);
      chat.start();
      background.start();
      embeddings.start();
      await items.start();
      const initial =
        options.vault ??
        recent.list().find((entry) => existsSync(entry.path))?.path ??
        (await ensureSampleVault(options.resourcesDir, options.dataDir));
      await vault.open(initial);
    },
    async dispose() {
      background.stop();
      await embeddings.stop();
      // Answers stop and save what they streamed before the database closes.
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
