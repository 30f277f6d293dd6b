import type { Handlers } from '../shared/contract';
import type { AppInfo } from '../shared/domain';
import type { AppEvents } from './app-events';
import type { ChatDrafts } from './chat/chat-drafts';
import type { ChatService } from './chat/chat-service';
import type { SessionContext } from './request/session-context';
import type { ChatExporter } from './export/chat-export';
import type { VaultIndex } from './index/vault-index';
import type { ModelService } from './llm/model-service';
import { estimateSummaries } from './summaries/summary-estimate';
import { noSummaryModel, type SummaryQueue } from './summaries/summary-queue';
import type { RecentVaults } from './vault/recent-vaults';
import type { VaultService } from './vault/vault-service';
import { writeHandlers } from './chat/vault-writes';
import { chatWriteHandlers } from './chat/chat-write-handlers';
import type { ChatServices } from './composition/chat-services';
import type { EmbeddingServices } from './composition/embedding-services';
import type { ItemServices } from './composition/item-services';
import type { ModelServices } from './composition/model-services';
import type { VaultServices } from './composition/vault-services';
import { itemHandlers } from './items/item-handlers';
import type { PriceBook } from './llm/price-book';
import { priceHandlers } from './llm/price-handlers';
import { promptHandlers, type PromptServices } from './prompts/prompt-services';
import { imageHandlers } from './images/image-handlers';
import type { ImageServices } from './composition/image-services';
import { webHandlers } from './web/web-handlers';
import type { PromptRunner } from './prompts/prompt-runner';

/** The services behind the core channels (the embeddings', writes' and items' have handlers of their own). */
export interface CoreServices {
  info: AppInfo;
  vault: VaultService;
  recent: RecentVaults;
  index: VaultIndex;
  chat: ChatService;
  context: SessionContext;
  events: AppEvents;
  exporter: ChatExporter;
  drafts: ChatDrafts;
  models: ModelService;
  /** What the models cost: the summary estimate prices a run with it. */
  prices: PriceBook;
  summaries: SummaryQueue;
  /** Saved prompts: the meter counts a `/Name` draft as the message it makes. */
  prompts: Pick<PromptRunner, 'draft'>;
}

type CoreChannels = Exclude<
  keyof Handlers,
  | `embeddings:${string}`
  | 'search:notes'
  | 'search:results'
  | 'notes:related'
  | 'chat:approve'
  | `writes:${string}`
  | `items:${string}`
  | 'rules:list'
  | 'tools:list'
  | 'attachments:prepare'
  | `mcp:${string}`
  | `prices:${string}`
  | `prompts:${string}`
  | `images:${string}`
  | `web:${string}`
>;

/** The handlers of the core channels: parse is done by the host; each is one service call. */
export function coreHandlers(services: CoreServices): Pick<Handlers, CoreChannels> {
  const { info, vault, recent, index, chat, context, events, exporter, drafts, models, prices, summaries } =
    services;
  const { prompts } = services;
  return {
    'app:info': async () => info,
    'vault:open': async (input) => vault.open(input?.path),
    'vault:recent': async () => recent.list(),
    'vault:tree': async () => vault.tree(),
    'notes:read': async ({ path }) => {
      const note = await vault.readNote(path);
      // Shown in the note panel: a note in use gets its model summary, when summaries on use are on.
      summaries.used(path);
      return { ...note, links: index.linksIn(path, note.content) };
    },
    'attachments:read': async ({ path }) => vault.readAttachment(path),
    'health:summary': async (input) => index.healthSummary(input?.folder ?? null),
    'health:links': async (query) => index.healthLinks(query),
    'vault:issues': async () => index.issueCounts(),
    'index:status': async () => index.status(),
    'index:report': async () => index.status().report ?? index.report(),
    'index:cancel': async () => {
      index.cancel();
      return null;
    },
    'search:tags': async () => index.tags(),
    'links:list': async (input) => index.links({ broken: input?.broken }),
    'links:outgoing': async ({ path }) => index.outgoing(path),
    'links:backlinks': async ({ path }) => index.backlinks(path),
    'chat:send': async (input) => {
      const { done: _done, ...started } = await chat.send(input);
      return { ...started, userMessage: started.userMessage! };
    },
    'chat:resend': async ({ sessionId, messageId }) => {
      chat.resend(sessionId, messageId);
      return null;
    },
    'chat:stop': async ({ sessionId }) => {
      chat.stop(sessionId);
      return null;
    },
    'chat:retry': async ({ sessionId }) => {
      const { session, assistantMessage } = await chat.retry(sessionId);
      return { session, assistantMessage };
    },
    'context:status': async ({ sessionId, draft, attachments, items: pending, prompt }) => {
      const called = prompt ? await prompts.draft(prompt) : null;
      if (!called) return context.status(sessionId, draft, { attachments, items: pending });
      // Counted as the prompt's message: its words, its note, and the rules and tools it adds.
      const items = {
        ...pending,
        rules: [...(pending?.rules ?? []), ...called.include.rules],
        tools: [...(pending?.tools ?? []), ...called.include.tools],
      };
      return context.status(sessionId, called.text, { attachments, items, brings: called.context });
    },
    'context:compact': async ({ sessionId, focus }) => chat.compact(sessionId, focus),
    'context:settings': async () => context.settings(),
    'context:configure': async (settings) => {
      const saved = context.configure(settings);
      events.emit('context:changed', { sessionId: '' });
      return saved;
    },
    'context:strategy': async ({ sessionId, strategy }) => {
      context.setStrategy(sessionId, strategy);
      events.emit('context:changed', { sessionId });
      return null;
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
    'sessions:export': async ({ id, folder, path, update }) =>
      exporter.export({ sessionId: id, folder, path, update }),
    'drafts:read': async ({ sessionId }) => ({ text: drafts.read(sessionId) }),
    'drafts:save': async ({ sessionId, text }) => {
      drafts.save(sessionId, text);
      return null;
    },
    'models:settings': async () => models.setup(),
    'models:configure': async (settings, caller) => models.configure(settings, caller),
    'models:key': async ({ key }) => models.setKey(key),
    'models:list': async (draft, caller) => models.list(draft, caller),
    'models:test': async (draft, caller) => models.test(draft, caller),
    'models:window': async () => models.contextWindow(),
    'summaries:configure': async (settings) => models.setSummaries(settings),
    'summaries:estimate': async (input) => {
      const model = models.summaryModelName();
      if (model === null) throw noSummaryModel();
      return estimateSummaries({
        work: summaries.work(input?.paths),
        readNote: (path) => vault.readNote(path),
        tokens: (text) => context.tokensOf(text),
        settings: models.setup().settings,
        model,
        price: await prices.quote(model),
      });
    },
    'summaries:run': async (input) =>
      summaries.summarize(input?.paths, { confirmed: input?.confirmed === true }),
    'summaries:cancel': async () => {
      summaries.cancel();
      return null;
    },
    'summaries:status': async () => summaries.progress(),
    'links:resolve': async ({ links, from }) =>
      links.map((link) => (from === undefined ? index.resolveInMessage(link) : index.resolve(link, from))),
    'notes:titles': async () => index.titles(),
    'links:subpaths': async ({ target }) => index.subpaths(target),
  };
}

/** The services the composition root built, by the step that built them. */
export interface AppServices {
  vaults: VaultServices;
  llm: ModelServices;
  embeddings: EmbeddingServices;
  items: ItemServices;
  images: ImageServices;
  conversations: ChatServices;
  prompts: PromptServices;
  events: AppEvents;
}

/** Every channel's handler: the contract's one way into the services, for every host. */
export function appHandlers(info: AppInfo, services: AppServices): Handlers {
  const { vaults, llm, embeddings, items, images, conversations, prompts, events } = services;
  const { chat, context } = conversations;
  return {
    ...coreHandlers({
      info,
      vault: vaults.vault,
      recent: vaults.recent,
      index: vaults.index,
      chat,
      context,
      events,
      exporter: conversations.exporter,
      drafts: conversations.drafts,
      models: llm.models,
      prices: llm.prices,
      summaries: llm.summaries,
      prompts: prompts.runner,
    }),
    ...embeddings.handlers,
    ...priceHandlers(llm.prices),
    ...imageHandlers({ vision: images.vision, setChoice: images.setChoice }),
    ...writeHandlers(conversations.writes, conversations.undo, events),
    ...chatWriteHandlers(conversations.writes, conversations.chat, conversations.undo),
    ...webHandlers({ pages: items.web, settings: items.webSettings, saver: conversations.webSaver }),
    ...itemHandlers({
      service: items.service,
      intake: items.intake,
      mcp: items.mcp,
      mcpSettings: items.mcpSettings,
      events,
      pinnedTokens: (sessionId) => context.pinnedTokens(sessionId),
    }),
    ...promptHandlers(prompts, chat),
  };
}
