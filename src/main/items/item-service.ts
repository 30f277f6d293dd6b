import {
  sessionItemKinds,
  type AgentPromptPlacement,
  type ContextItemSettings,
  type RuleInfo,
  type SendInput,
  type SessionItemKind,
  type SessionItems,
  type ToolInfo,
} from '../../shared/context-items-domain';
import { AppError } from '../app-error';
import type { TextVectors } from '../embeddings/text-vectors';
import type { ToolRegistry } from '../tools/tool-registry';
import {
  agentCandidates,
  candidatePassages,
  chooseCandidates,
  ruleItem,
  type AnswerItems,
} from '../request/sources/answer-items';
import type { AttachmentStore } from './attachment-store';
import type { ItemSettingsStore } from './item-settings';
import { pinnedItems } from '../request/sources/pinned-input';
import { pinnedNotes } from './pinned-notes';
import { readAttachmentTool } from './read-attachment';
import { scoreRelevance } from '../request/sources/relevance';
import type { RulesCatalog } from './rules-catalog';
import type { SessionItemsStore } from './session-items-store';
import { toolCatalog, type CatalogTool, type McpToolOffer, type McpToolSource } from './tool-catalog';

export interface ContextItemsOptions {
  settings: ItemSettingsStore;
  sessions: SessionItemsStore;
  attachments: AttachmentStore;
  rules: RulesCatalog;
  index: { note(path: string): { path: string; title: string } | null };
  readNote: (path: string) => Promise<{ content: string }>;
  /** Every tool: the vault's, whose include modes the settings set, and the MCP servers' as they are listed. */
  registry: ToolRegistry;
  mcp: McpToolSource | null;
  vectors: TextVectors | null;
  /**
   * A text's tokens as the context engine counts them for the configured model (calibrated): what every
   * rule, tool schema and pinned note is shown and sized with.
   */
  tokens: (text: string) => number;
}

/**
 * What each pinned note of a chat takes in its next request, by path, as the context meter counts it;
 * a note left out of it has none.
 */
export type PinnedTokens = (sessionId: string) => Promise<ReadonlyMap<string, number>>;

type PendingItems = NonNullable<SendInput['items']>;

/** An item as a chat stores it. */
export interface ResolvedItem {
  kind: SessionItemKind;
  key: string;
  title: string;
}

/** Where `chat:send`'s `items` list each kind. */
const pendingKey = { pinned: 'pinned', rule: 'rules', tool: 'tools' } as const;

/** What one answer needs to know to ask for its items. */
export interface AnswerRequest {
  sessionId: string;
  question: string;
  /** What pinned notes may take whole (the budget's `pinned`); past it, their passages are scored. */
  pinnedLimit: number;
  numbers: (path: string, title: string) => number;
  signal: AbortSignal;
  /** Items chosen for a chat not started yet: the meter counts them before the first message. */
  pending?: PendingItems;
  /**
   * The meter's estimate as the user types: MCP servers not running are not started for it, and the
   * draft is matched by words (no embedding call per keystroke).
   */
  estimate?: boolean;
}

/**
 * Rules, pinned notes, tools (the vault's and MCP servers'), attachments and the agent prompt: what a
 * chat's requests hold besides its messages, by include mode (always, manual, agent), and what the user
 * added to each chat.
 */
export class ItemService {
  constructor(private readonly options: ContextItemsOptions) {}

  settings(): ContextItemSettings {
    return this.options.settings.get();
  }

  configure(settings: ContextItemSettings): ContextItemSettings {
    return this.options.settings.set(settings);
  }

  /** The vault's rules with their include modes and any warning about their frontmatter. */
  async rules(): Promise<RuleInfo[]> {
    const rules = await this.options.rules.list(this.settings().rulesFolder);
    return rules.map(({ text, passages: _passages, ...info }) => ({
      ...info,
      tokens: this.options.tokens(text),
    }));
  }

  /**
   * Every tool that may be offered, with its mode; MCP servers are started to list theirs unless
   * `running` asks only for the servers running now (the panel, which reloads on every status change).
   */
  async tools(signal?: AbortSignal, running = false): Promise<{ tools: ToolInfo[]; notices: string[] }> {
    const mcp = running
      ? { tools: this.options.mcp?.running() ?? [], notices: [] }
      : ((await this.options.mcp?.tools(signal)) ?? { tools: [], notices: [] });
    const catalog = this.catalog(this.settings().tools, mcp.tools);
    return { tools: catalog.map(({ info }) => info), notices: mcp.notices };
  }

  /**
   * What the session context panel shows: every item, whether the chat has it, and what it costs (the
   * meter's figures for pinned notes: the meter plans with this service, so it is asked per call).
   */
  async session(sessionId: string | null, pinnedTokens: PinnedTokens): Promise<SessionItems> {
    const { sessions, attachments, index } = this.options;
    const settings = this.settings();
    const added = sessionId ? sessions.list(sessionId) : [];
    const has = (kind: SessionItemKind, key: string) =>
      added.some((row) => row.kind === kind && row.key === key);
    const [rules, tools] = await Promise.all([this.rules(), this.tools(undefined, true)]);
    const pins = added.filter((entry) => entry.kind === 'pinned');
    const pinned = pinnedNotes(
      pins,
      index,
      sessionId && pins.length > 0 ? await pinnedTokens(sessionId) : new Map(),
    );
    return {
      sessionId,
      rules: rules.map((rule) => ({ ...rule, active: rule.include === 'always' || has('rule', rule.path) })),
      tools: tools.tools.map((tool) => ({
        ...tool,
        active: tool.include === 'always' || has('tool', tool.name),
      })),
      pinned,
      attachments: sessionId
        ? attachments.ofSession(sessionId).map(({ text: _t, language: _l, ...info }) => info)
        : [],
      agentPrompt: this.agentPrompt(sessionId) ?? {
        text: settings.agentPrompt,
        placement: settings.agentPromptPlacement,
        own: false,
      },
      rulesFolder: settings.rulesFolder,
      notices: (this.options.mcp?.statuses() ?? [])
        .filter((server) => server.state === 'failed' || server.state === 'crashed')
        .map(
          (server) => `MCP server “${server.name}” ${server.state}: ${server.message ?? 'no reason given'}.`,
        ),
    };
  }

  /** Adds an item to a chat (`on`) or takes it out: a manual rule or tool, or a pinned note. */
  async set(sessionId: string, kind: SessionItemKind, key: string, on: boolean): Promise<void> {
    const [item] = on ? await this.check({ [pendingKey[kind]]: [key] }) : [{ key, title: key }];
    this.options.sessions.set(sessionId, kind, item!.key, item!.title, on);
  }

  /**
   * Checks items chosen for a chat before it exists (`chat:send`'s `items`), so that a wrong one fails
   * before anything is created; resolves to them as `set` stores them. Rules and tools are listed once.
   */
  async check(items: PendingItems): Promise<ResolvedItem[]> {
    return this.resolveAll(items, await this.known(items), (kind, key) => {
      throw new AppError('not-found', this.notFound(kind, key));
    });
  }

  /** What `check` would refuse among `items`, each said as it would say it; nothing when all are there. */
  async missing(items: PendingItems): Promise<string[]> {
    const missing: string[] = [];
    this.resolveAll(items, await this.known(items), (kind, key) => missing.push(this.notFound(kind, key)));
    return missing;
  }

  /** The rules and tools `items` may name, listed only when it names any. */
  private async known(items: PendingItems) {
    return {
      rules: items.rules?.length ? await this.rules() : [],
      tools: items.tools?.length ? (await this.tools()).tools.map((tool) => tool.name) : [],
    };
  }

  /** Stores items `check` resolved. */
  add(sessionId: string, items: readonly ResolvedItem[]): void {
    for (const item of items) this.options.sessions.set(sessionId, item.kind, item.key, item.title, true);
  }

  /**
   * Each item under the key and title it is stored by (a note's path; a rule's path, given its path or
   * name), among the rules and tools `known`; `missing` decides what becomes of one that is not there.
   */
  private resolveAll(
    items: PendingItems,
    known: { rules: readonly { path: string; name: string }[]; tools: readonly string[] },
    missing: (kind: SessionItemKind, key: string) => void,
  ): ResolvedItem[] {
    const find = (kind: SessionItemKind, key: string): { key: string; title: string } | null => {
      if (kind === 'pinned') {
        const note = this.options.index.note(key);
        return note ? { key, title: note.title } : null;
      }
      if (kind === 'tool') return known.tools.includes(key) ? { key, title: key } : null;
      const rule = known.rules.find((entry) => entry.path === key || entry.name === key);
      return rule ? { key: rule.path, title: rule.name } : null;
    };
    const resolved: ResolvedItem[] = [];
    for (const kind of sessionItemKinds) {
      for (const key of items[pendingKey[kind]] ?? []) {
        const found = find(kind, key);
        if (found) resolved.push({ kind, ...found });
        else missing(kind, key);
      }
    }
    return resolved;
  }

  private notFound(kind: SessionItemKind, key: string): string {
    if (kind === 'pinned') return `There is no note “${key}” to pin.`;
    if (kind === 'rule') return `There is no rule “${key}” in ${this.settings().rulesFolder}.`;
    return `There is no tool named “${key}”.`;
  }

  /** The chats that pinned any of `paths`: a note deleted or changed there changes their panels. */
  pinnedIn(paths: readonly string[]): string[] {
    return this.options.sessions.pinnedIn(paths);
  }

  /** The chat's own agent prompt, or null to use the vault's again. */
  setAgentPrompt(sessionId: string, prompt: { text: string; placement: AgentPromptPlacement } | null): void {
    this.options.sessions.setAgentPrompt(sessionId, prompt);
  }

  /** Notes renamed on disk: pins follow them. Returns how many pins moved. */
  followRenames(renamed: readonly { from: string; to: string }[]): number {
    let moved = 0;
    for (const { from, to } of renamed) {
      const title = this.options.index.note(to)?.title ?? to;
      moved += this.options.sessions.followRename(from, to, title);
    }
    return moved;
  }

  /** Decides the items of one answer: the rules, tools and pinned notes, and the agent items' scores. */
  async forAnswer(request: AnswerRequest): Promise<AnswerItems> {
    const { sessionId, question, signal } = request;
    const settings = this.settings();
    const [rules, mcp] = await Promise.all([
      this.options.rules.list(settings.rulesFolder),
      request.estimate
        ? { tools: this.options.mcp?.running() ?? [], notices: [] }
        : (this.options.mcp?.tools(signal) ?? { tools: [], notices: [] }),
    ]);
    const catalog = this.catalog(settings.tools, mcp.tools);
    // Items chosen for a chat not started yet, among what was just listed; one gone since is left out.
    const pending = this.resolveAll(
      request.pending ?? {},
      { rules, tools: catalog.map(({ tool }) => tool.name) },
      () => {},
    );
    const added: { kind: SessionItemKind; key: string; title: string }[] = [
      ...this.options.sessions.list(sessionId),
      ...pending,
    ];
    const has = (kind: SessionItemKind, key: string) =>
      added.some((row) => row.kind === kind && row.key === key);
    // An item the user added to the chat is in every request of it, whatever its mode (an `agent` one
    // then counts as manual here); the others by their mode.
    const addedTool = (name: string) => has('tool', name);
    const addedRule = (path: string) => has('rule', path);
    const tools: AnswerItems['tools'] = catalog.flatMap(({ tool, info }): AnswerItems['tools'] => {
      const optional = info.source === 'mcp';
      if (info.include === 'always') return [{ tool, include: 'always', optional }];
      return addedTool(tool.name) ? [{ tool, include: 'manual', optional }] : [];
    });
    const files = this.options.attachments.ofSession(sessionId);
    if (files.length > 0) tools.push({ tool: readAttachmentTool(files), include: 'always' });

    const items = rules.flatMap((rule) =>
      rule.include === 'always'
        ? [ruleItem(rule, 'always')]
        : addedRule(rule.path)
          ? [ruleItem(rule, 'manual')]
          : [],
    );
    const notices = [...mcp.notices];
    const candidates = agentCandidates(
      rules.filter((rule) => !addedRule(rule.path)),
      catalog.filter(({ tool }) => !addedTool(tool.name)),
      this.options.tokens,
    );
    const vectors = request.estimate ? null : this.options.vectors;
    const relevance = await scoreRelevance(vectors, question, candidatePassages(candidates), signal);
    if (relevance.notice) notices.push(relevance.notice);
    const chosen = chooseCandidates(candidates, relevance);
    items.push(...chosen.items);
    const unchosen = [...chosen.unchosen];
    const pinned = await pinnedItems(
      added.filter((entry) => entry.kind === 'pinned'),
      {
        ...request,
        tokens: this.options.tokens,
        index: this.options.index,
        readNote: this.options.readNote,
        vectors,
      },
    );
    items.push(...pinned.items);
    for (const notice of pinned.notices) if (!notices.includes(notice)) notices.push(notice);
    const own = this.agentPrompt(sessionId);
    const prompt = own ?? { text: settings.agentPrompt, placement: settings.agentPromptPlacement };
    return {
      tools,
      items,
      candidateTools: catalog.filter(({ info }) => info.include === 'agent').map(({ tool }) => tool),
      unchosen,
      agentPrompt: prompt.text.trim() ? { text: prompt.text, placement: prompt.placement } : null,
      notices,
    };
  }

  /** The vault's tools and the MCP servers' listed ones, which are registered so that calls reach them. */
  private catalog(modes: ContextItemSettings['tools'], mcp: readonly McpToolOffer[]): CatalogTool[] {
    const { registry, tokens } = this.options;
    const own = [...registry.family('vault'), ...registry.family('web')];
    const catalog = toolCatalog(own, modes, mcp, tokens);
    for (const { tool } of catalog) registry.register(tool);
    return catalog;
  }

  private agentPrompt(sessionId: string | null) {
    const own = sessionId ? this.options.sessions.agentPrompt(sessionId) : null;
    return own ? { ...own, own: true } : null;
  }
}
