import { AppError } from '../app-error';
import type { AppEvents } from '../app-events';
import { ChatDrafts } from '../chat/chat-drafts';
import { ChatWriteChoices } from '../chat/chat-write-choices';
import { ChatService } from '../chat/chat-service';
import { ContextSettingsStore } from '../chat/context-settings';
import type { ToolVault } from '../chat/note-locator';
import type { VaultWrites } from '../chat/vault-writes';
import { WriteDecisions } from '../chat/write-decisions';
import { WritePermissions } from '../chat/write-permissions';
import { WriteRecords } from '../chat/write-records';
import { WriteUndo } from '../chat/write-undo';
import { ChatExporter } from '../export/chat-export';
import { WebSaver } from '../web/web-saver';
import { SessionContext } from '../request/session-context';
import type { AppOptions } from './app-options';
import type { EmbeddingServices } from './embedding-services';
import type { ImageServices } from './image-services';
import type { ItemServices } from './item-services';
import type { ModelServices } from './model-services';
import type { PromptServices } from '../prompts/prompt-services';
import type { RequestServices } from './request-services';
import type { VaultServices } from './vault-services';

/** What chat is built on: every service before it. */
export interface ChatFoundations {
  vaults: VaultServices;
  llm: ModelServices;
  embeddings: EmbeddingServices;
  request: RequestServices;
  items: ItemServices;
  images: ImageServices;
  /** Saved prompts: a message sent from one is retried with its note and model. */
  prompts: PromptServices;
  events: AppEvents;
}

/** Chat sessions and their answers, the context engine's view of them, writes, exports and drafts. */
export function chatServices(options: AppOptions, foundations: ChatFoundations) {
  const { vaults, embeddings, request, items, images, prompts, events } = foundations;
  const { models, prices, summaries } = foundations.llm;
  const { db, vault, index } = vaults;
  const writes: VaultWrites = {
    permissions: new WritePermissions(db, vaults.openPath),
    decisions: new WriteDecisions(),
    mode: options.writes ?? (options.host === 'cli' ? 'refused' : 'ask'),
    writer: vault,
    records: new WriteRecords(db, options.now),
    chats: new ChatWriteChoices(db),
  };
  /** The open vault as answers see it: its root, its name and what the model's tools reach. */
  const openVault = () => {
    const open = vault.summary();
    if (!open) throw new AppError('no-vault', 'No vault is open.');
    const tools: ToolVault = {
      // A note the model reads brings the images it embeds, for a model that sees them.
      readNote: (path: string) => images.readNote(path),
      index,
      search: embeddings.search,
      related: embeddings.related,
      summary: (path: string) => summaries.summaryFor(path)?.text ?? '',
    };
    return { root: open.path, name: open.name, tools };
  };
  const context = new SessionContext({
    engine: request.engine,
    store: request.chatStore,
    settings: new ContextSettingsStore(db),
    window: request.window,
    onWindowNamed: (tokens) => void models.windowNamed(tokens),
    onPromptTaken: (tokens) => void models.promptTaken(tokens),
    profile: request.profile,
    count: request.count,
    // Writes the summaries of compactions; with no model chosen at all, chatModel() says so.
    model: () => models.summaryModel() ?? models.chatModel(),
    vault: openVault,
    tools: items.tools,
    writesOffered: () => writes.permissions.offered(writes.mode),
    items: items.service,
    attachments: items.attachments,
    pendingFiles: (tokens) => items.intake.peek(tokens),
    strategy: options.contextStrategy,
    compactionTimeoutMs: options.compactionTimeoutMs,
    now: options.now,
  });
  const chat = new ChatService({
    store: request.chatStore,
    events,
    vault: openVault,
    model: () => images.withImages(models.chatModel()),
    price: (model) => prices.quote(model),
    indexed: () => index.whenIdle(),
    context,
    writes,
    tools: { registry: items.tools, mcp: items.mcp },
    items: items.service,
    attachments: { intake: items.intake, store: items.attachments },
    again: (message) => prompts.runner.again(message),
  });
  const exporter = new ChatExporter({
    db,
    session: (id) => chat.session(id),
    vault: {
      root: () => openVault().root,
      prepareCreate: (path, content) => vault.prepareCreate(path, content),
      replaceNote: (path, content, hash) => vault.replaceNote(path, content, hash),
    },
    recorded: (sessionId, write) =>
      writes.records.add({ sessionId, callId: null, vault: openVault().root, kind: 'export' }, write),
  });
  const webSaver = new WebSaver({
    attachments: items.attachments,
    prepareCreate: (path, content) => vault.prepareCreate(path, content),
    recorded: (sessionId, write) =>
      writes.records.add({ sessionId, callId: null, vault: openVault().root, kind: 'create' }, write),
    now: options.now,
  });
  const undo = new WriteUndo({
    records: writes.records,
    store: request.chatStore,
    events,
    vault: {
      root: () => vault.summary()?.path ?? null,
      restoreNote: (path, previous, hash) => vault.restoreNote(path, previous, hash),
    },
    exportUndone: (sessionId, path, previous) => exporter.undone(sessionId, path, previous),
  });
  const drafts = new ChatDrafts(db, () => openVault().root);
  return { writes, context, chat, exporter, undo, drafts, webSaver };
}

export type ChatServices = ReturnType<typeof chatServices>;
