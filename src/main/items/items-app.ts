import type { Caller, Handlers } from '../../shared/contract';
import type { IndexChange } from '../../shared/index-domain';
import type { McpServersView } from '../../shared/items-contract';
import type { AppEvents } from '../app-events';
import { createAttachmentReader } from '../attachments/attachment-reader';
import type { TextVectors } from '../embeddings/text-vectors';
import type { NoteHash } from '../index/note-catalog';
import { McpServers } from '../mcp/mcp-servers';
import type { SqliteDatabase } from '../storage/database';
import type { ToolRegistry } from '../tools/tool-registry';
import { AttachmentIntake } from './attachment-intake';
import { AttachmentStore } from './attachment-store';
import { ItemService } from './item-service';
import { ItemSettingsStore } from './item-settings';
import { confirmationsAfter, startableServers, unconfirmedCommands } from './mcp-commands';
import { McpSettingsStore } from './mcp-settings';
import { RulesCatalog } from './rules-catalog';
import { SessionItemsStore } from './session-items-store';

export interface ItemsAppOptions {
  db: SqliteDatabase;
  events: AppEvents;
  /** The open vault's path; null when none is open. */
  vault: () => string | null;
  index: {
    note(path: string): { path: string; title: string } | null;
    noteHashesUnder(folder: string): NoteHash[];
  };
  readNote: (path: string) => Promise<{ content: string }>;
  /** Every tool; the MCP servers' are registered in it as they are listed. */
  registry: ToolRegistry;
  vectors: TextVectors | null;
  /** The built attachment worker; without one files are read on the main thread. */
  attachmentWorker: string | null;
  /** Counting for the open chat's model, and room for attachments (SessionContext). */
  tokens: (text: string) => number;
  /** What each pinned note of a chat takes in its next request, as the context meter counts it. */
  pinnedTokens: (sessionId: string) => Promise<ReadonlyMap<string, number>>;
  attachmentRoom: () => Promise<{ tokens: number; window: number }>;
}

/** Context items wired together: the service, its stores, MCP servers, attachments and the handlers. */
export function createContextItems(options: ItemsAppOptions) {
  const { db, events } = options;
  const mcp = new McpServers();
  const mcpSettings = new McpSettingsStore(db);
  const sessions = new SessionItemsStore(db);
  const attachments = new AttachmentStore(db);
  const reader = createAttachmentReader(options.attachmentWorker);
  const intake = new AttachmentIntake({ reader, tokens: options.tokens, room: options.attachmentRoom });
  const service = new ItemService({
    settings: new ItemSettingsStore(db, options.vault),
    sessions,
    attachments,
    rules: new RulesCatalog({
      notesUnder: (folder) => options.index.noteHashesUnder(folder),
      readNote: options.readNote,
    }),
    index: options.index,
    readNote: options.readNote,
    registry: options.registry,
    mcp,
    vectors: options.vectors,
    tokens: options.tokens,
    pinnedTokens: options.pinnedTokens,
  });
  const changed = (sessionId: string | null = null) => events.emit('items:changed', { sessionId });
  const mcpView = (caller?: Caller): McpServersView => {
    const servers = mcpSettings.get();
    return {
      servers,
      statuses: mcp.statuses(),
      unconfirmed: unconfirmedCommands(servers, mcpSettings.confirmations()),
      commandsAllowed: caller?.atMachine === true,
    };
  };
  // Only servers whose command was confirmed at the machine reach the runtime: nothing else can start them.
  const configureRuntime = () =>
    mcp.configure(startableServers(mcpSettings.get(), mcpSettings.confirmations()));
  /** One sentence per enabled server left unstarted for want of a confirmation, for the tools list. */
  const unconfirmedNotices = () => {
    const servers = mcpSettings.get();
    return unconfirmedCommands(servers, mcpSettings.confirmations()).flatMap(({ id, reason }) => {
      const server = servers.find((candidate) => candidate.id === id);
      return server?.enabled ? [`MCP server “${server.name}” is not started. ${reason}`] : [];
    });
  };
  const stopListening = mcp.onStatus(() => changed());

  const handlers: Pick<
    Handlers,
    | 'items:session'
    | 'items:set'
    | 'items:prompt'
    | 'items:settings'
    | 'items:configure'
    | 'rules:list'
    | 'tools:list'
    | 'attachments:prepare'
    | 'mcp:servers'
    | 'mcp:configure'
  > = {
    'items:session': async ({ sessionId }) => service.session(sessionId ?? null),
    'items:set': async ({ sessionId, kind, key, on }) => {
      await service.set(sessionId, kind, key, on);
      changed(sessionId);
      events.emit('context:changed', { sessionId });
      return service.session(sessionId);
    },
    'items:prompt': async ({ sessionId, prompt }) => {
      service.setAgentPrompt(sessionId, prompt);
      events.emit('context:changed', { sessionId });
      return service.session(sessionId);
    },
    'items:settings': async () => service.settings(),
    'items:configure': async (settings) => {
      const saved = service.configure(settings);
      changed();
      events.emit('context:changed', { sessionId: '' });
      return saved;
    },
    'rules:list': async () => service.rules(),
    'tools:list': async () => {
      const list = await service.tools();
      return { ...list, notices: [...list.notices, ...unconfirmedNotices()] };
    },
    'attachments:prepare': async ({ name, data }) => intake.prepare(name, Buffer.from(data, 'base64')),
    'mcp:servers': async (_input, caller) => mcpView(caller),
    'mcp:configure': async ({ servers, confirm = [] }, caller) => {
      const stored = mcpSettings.get();
      const confirmations = confirmationsAfter(stored, servers, mcpSettings.confirmations(), confirm, caller);
      mcpSettings.set(servers, confirmations);
      await configureRuntime();
      events.emit('context:changed', { sessionId: '' });
      return mcpView(caller);
    },
  };

  return {
    service,
    intake,
    attachments,
    mcp,
    handlers,
    /** Pins follow renamed notes; rules edited on disk change what the panel shows. */
    indexChanged(change: IndexChange): void {
      const folder = `${service.settings().rulesFolder.replace(/\/+$/, '')}/`;
      const moved = change.renamed.length > 0 && service.followRenames(change.renamed) > 0;
      if (moved || change.paths.some((path) => path.startsWith(folder))) changed();
      // A pinned note deleted or edited: the chats that pinned it show its state and tokens anew.
      else for (const sessionId of service.pinnedIn(change.paths)) changed(sessionId);
    },
    async start(): Promise<void> {
      await configureRuntime();
    },
    async stop(): Promise<void> {
      stopListening();
      await mcp.dispose();
      await reader.dispose();
    },
  };
}

export type ContextItemsApp = ReturnType<typeof createContextItems>;
