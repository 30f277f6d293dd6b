import type {
  AgentPromptPlacement,
  ContextItemSettings,
  RuleInfo,
  SendInput,
  SessionItemKind,
  SessionItems,
  ToolInfo,
} from '../../shared/context-items-domain';
import { AppError } from '../app-error';
import type { TextVectors } from '../embeddings/text-vectors';
import type { LlmTool } from '../llm/llm-types';
import {
  agentCandidates,
  candidatePassages,
  chooseCandidates,
  ruleItem,
  type AnswerItems,
} from './answer-items';
import type { AttachmentStore } from './attachment-store';
import type { ItemSettingsStore } from './item-settings';
import { pinnedItems } from './pinned-input';
import { pinnedNotes } from './pinned-notes';
import { readAttachmentName, readAttachmentTool, runReadAttachment } from './read-attachment';
import { scoreRelevance } from './relevance';
import type { RulesCatalog } from './rules-catalog';
import type { SessionItemRow, SessionItemsStore } from './session-items-store';
import { toolCatalog, type McpToolSource } from './tool-catalog';

export interface ContextItemsOptions {
  settings: ItemSettingsStore;
  sessions: SessionItemsStore;
  attachments: AttachmentStore;
  rules: RulesCatalog;
  index: { note(path: string): { path: string; title: string } | null };
  readNote: (path: string) => Promise<{ content: string }>;
  /** The read-only vault tools, whose include modes the settings set. */
  vaultTools: readonly LlmTool[];
  mcp: McpToolSource | null;
  vectors: TextVectors | null;
}

type PendingItems = NonNullable<SendInput['items']>;

/** What one answer needs to know to ask for its items. */
export interface AnswerRequest {
  sessionId: string;
  question: string;
  /** Local tokens a pinned note may take whole (60% of usable); past it, its passages are scored. */
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
export class ContextItems {
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
    return rules.map(({ text: _text, passages: _passages, ...info }) => info);
  }

  /**
   * Every tool that may be offered, with its mode; MCP servers are started to list theirs unless
   * `running` asks only for the servers running now (the panel, which reloads on every status change).
   */
  async tools(signal?: AbortSignal, running = false): Promise<{ tools: ToolInfo[]; notices: string[] }> {
    const mcp = running
      ? { tools: this.options.mcp?.running() ?? [], notices: [] }
      : ((await this.options.mcp?.tools(signal)) ?? { tools: [], notices: [] });
    const catalog = toolCatalog(this.options.vaultTools, this.settings().tools, mcp.tools);
    return { tools: catalog.map(({ info }) => info), notices: mcp.notices };
  }

  /** What the session context panel shows: every item, whether the chat has it, and what it costs. */
  async session(sessionId: string | null): Promise<SessionItems> {
    const { sessions, attachments, index } = this.options;
    const settings = this.settings();
    const added = sessionId ? sessions.list(sessionId) : [];
    const has = (kind: SessionItemKind, key: string) =>
      added.some((row) => row.kind === kind && row.key === key);
    const [rules, tools] = await Promise.all([this.rules(), this.tools(undefined, true)]);
    const pinned = await pinnedNotes(
      added.filter((entry) => entry.kind === 'pinned'),
      index,
      this.options.readNote,
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
    const item = on ? await this.resolve(kind, key) : { key, title: key };
    this.options.sessions.set(sessionId, kind, item.key, item.title, on);
  }

  /**
   * Checks items chosen for a chat before it exists (`chat:send`'s `items`), so that a wrong one fails
   * before anything is created; resolves to them as `set` stores them.
   */
  async check(items: PendingItems): Promise<{ kind: SessionItemKind; key: string; title: string }[]> {
    const checked: { kind: SessionItemKind; key: string; title: string }[] = [];
    for (const [kind, keys] of [
      ['pinned', items.pinned],
      ['rule', items.rules],
      ['tool', items.tools],
    ] as const) {
      for (const key of keys ?? []) checked.push({ kind, ...(await this.resolve(kind, key)) });
    }
    return checked;
  }

  /** Stores items `check` resolved. */
  add(sessionId: string, items: readonly { kind: SessionItemKind; key: string; title: string }[]): void {
    for (const item of items) this.options.sessions.set(sessionId, item.kind, item.key, item.title, true);
  }

  /** The key and title an item is stored under: a note's path, a rule's path (given its path or name). */
  private async resolve(kind: SessionItemKind, key: string): Promise<{ key: string; title: string }> {
    if (kind === 'pinned') {
      const note = this.options.index.note(key);
      if (!note) throw new AppError('not-found', `There is no note “${key}” to pin.`);
      return { key, title: note.title };
    }
    if (kind === 'rule') {
      const rule = (await this.rules()).find((entry) => entry.path === key || entry.name === key);
      if (!rule)
        throw new AppError('not-found', `There is no rule “${key}” in ${this.settings().rulesFolder}.`);
      return { key: rule.path, title: rule.name };
    }
    if (!(await this.tools()).tools.some((tool) => tool.name === key))
      throw new AppError('not-found', `There is no tool named “${key}”.`);
    return { key, title: key };
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
    const added = [...this.options.sessions.list(sessionId), ...(await this.pending(request.pending))];
    const has = (kind: SessionItemKind, key: string) =>
      added.some((row) => row.kind === kind && row.key === key);
    const [rules, mcp] = await Promise.all([
      this.options.rules.list(settings.rulesFolder),
      request.estimate
        ? { tools: this.options.mcp?.running() ?? [], notices: [] }
        : (this.options.mcp?.tools(signal) ?? { tools: [], notices: [] }),
    ]);
    const catalog = toolCatalog(this.options.vaultTools, settings.tools, mcp.tools);
    // An item the user added to the chat is in every request of it, whatever its mode (an `agent` one
    // then counts as manual here); the others by their mode.
    const addedTool = (name: string) => has('tool', name);
    const addedRule = (path: string) => has('rule', path);
    const tools: AnswerItems['tools'] = catalog.flatMap(({ tool, info }): AnswerItems['tools'] =>
      info.include === 'always'
        ? [{ tool, include: 'always' as const }]
        : addedTool(tool.name)
          ? [{ tool, include: 'manual' as const }]
          : [],
    );
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

  /** Items chosen for a chat not started yet, as rows; those that no longer resolve are left out. */
  private async pending(items: PendingItems | undefined): Promise<SessionItemRow[]> {
    if (!items) return [];
    const checked = await this.check(items).catch(() => []);
    return checked.map((item) => ({ ...item, previousKey: null }));
  }

  /** Runs a call of a tool this module offers (read_attachment, MCP tools); null for any other tool. */
  runTool(
    sessionId: string,
    name: string,
    input: unknown,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; output: string }> | null {
    if (name === readAttachmentName)
      return Promise.resolve(runReadAttachment(this.options.attachments, sessionId, input));
    if (name.startsWith('mcp__') && this.options.mcp) return this.options.mcp.call(name, input, signal);
    return null;
  }

  private agentPrompt(sessionId: string | null) {
    const own = sessionId ? this.options.sessions.agentPrompt(sessionId) : null;
    return own ? { ...own, own: true } : null;
  }
}
