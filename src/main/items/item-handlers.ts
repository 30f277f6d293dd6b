import type { Caller, Handlers } from '../../shared/contract';
import type { IndexChange } from '../../shared/index-domain';
import type { McpServersView } from '../../shared/items-contract';
import type { AppEvents } from '../app-events';
import type { McpServers } from '../mcp/mcp-servers';
import type { AttachmentIntake } from './attachment-intake';
import type { ItemService, PinnedTokens } from './item-service';
import { confirmationsAfter, startableServers, unconfirmedCommands } from './mcp-commands';
import type { McpSettingsStore } from './mcp-settings';

export interface ItemHandlerServices {
  service: ItemService;
  intake: AttachmentIntake;
  mcp: McpServers;
  mcpSettings: McpSettingsStore;
  events: AppEvents;
  /** What each pinned note of a chat takes in its next request, as the context meter counts it. */
  pinnedTokens: PinnedTokens;
}

type ItemChannels =
  | 'items:session'
  | 'items:set'
  | 'items:prompt'
  | 'items:settings'
  | 'items:configure'
  | 'rules:list'
  | 'tools:list'
  | 'attachments:prepare'
  | 'mcp:servers'
  | 'mcp:configure';

/**
 * Starts the MCP servers whose command was confirmed at the machine, and stops the others: nothing
 * else can start them.
 */
export function configureMcpRuntime(mcp: McpServers, settings: McpSettingsStore): Promise<void> {
  return mcp.configure(startableServers(settings.get(), settings.confirmations()));
}

/** The handlers of the context items' channels: rules, pins, tools, attachments and MCP servers. */
export function itemHandlers(services: ItemHandlerServices): Pick<Handlers, ItemChannels> {
  const { service, intake, mcp, mcpSettings, events, pinnedTokens } = services;
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
  /** One sentence per enabled server left unstarted for want of a confirmation, for the tools list. */
  const unconfirmedNotices = () => {
    const servers = mcpSettings.get();
    return unconfirmedCommands(servers, mcpSettings.confirmations()).flatMap(({ id, reason }) => {
      const server = servers.find((candidate) => candidate.id === id);
      return server?.enabled ? [`MCP server “${server.name}” is not started. ${reason}`] : [];
    });
  };
  return {
    'items:session': async ({ sessionId }) => service.session(sessionId ?? null, pinnedTokens),
    'items:set': async ({ sessionId, kind, key, on }) => {
      await service.set(sessionId, kind, key, on);
      changed(sessionId);
      events.emit('context:changed', { sessionId });
      return service.session(sessionId, pinnedTokens);
    },
    'items:prompt': async ({ sessionId, prompt }) => {
      service.setAgentPrompt(sessionId, prompt);
      events.emit('context:changed', { sessionId });
      return service.session(sessionId, pinnedTokens);
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
      await configureMcpRuntime(mcp, mcpSettings);
      events.emit('context:changed', { sessionId: '' });
      return mcpView(caller);
    },
  };
}

/**
 * Tells `items:changed` as the items change outside any request: pins follow renamed notes, rules
 * edited on disk change what the panel shows, MCP servers start and stop. Returns the function that
 * stops listening.
 */
export function followItemChanges({
  service,
  mcp,
  events,
}: Pick<ItemHandlerServices, 'service' | 'mcp' | 'events'>): () => void {
  const changed = (sessionId: string | null = null) => events.emit('items:changed', { sessionId });
  const indexChanged = (change: IndexChange) => {
    const folder = `${service.settings().rulesFolder.replace(/\/+$/, '')}/`;
    const moved = change.renamed.length > 0 && service.followRenames(change.renamed) > 0;
    if (moved || change.paths.some((path) => path.startsWith(folder))) changed();
    // A pinned note deleted or edited: the chats that pinned it show its state and tokens anew.
    else for (const sessionId of service.pinnedIn(change.paths)) changed(sessionId);
  };
  const stops = [mcp.onStatus(() => changed()), events.on('index:changed', indexChanged)];
  return () => stops.forEach((stop) => stop());
}
