import type { ChatMessage, ContextWindow } from '../../shared/chat-domain';
import type {
  ContextSettings,
  ContextStatus,
  ContextStrategy,
  SessionCompaction,
} from '../../shared/context-domain';
import { AppError } from '../app-error';
import type { Budget } from './budget';
import type { ContextEngine } from './context-engine';
import type { ModelProfile } from './context-types';
import type { ChatModel } from '../llm/llm-types';
import type { ChatStore } from '../chat/chat-store';
import { engineOptions, type ContextSettingsStore } from '../chat/context-settings';
import { conversationOf, userText } from './history/conversation';
import { directReferences, type DirectReferences } from './sources/linked-notes';
import { withSelection } from './sources/selected-passage';
import type { NoteSelection } from '../../shared/selection-domain';
import type { ToolVault } from '../chat/note-locator';
import { RequestCount } from './request-count';
import { RequestPlanner } from './request-planner';
import { promptDate, systemPrompt, timeReminder } from './sources/system-prompt';
import type { AttachmentText } from '../../shared/attachment-domain';
import type { SendInput } from '../../shared/context-items-domain';
import type { ContextItemInput } from './context-types';
import type { MessageExtras } from '../chat/message-extras';
import type { AttachmentStore } from '../items/attachment-store';
import type { ItemService } from '../items/item-service';
import type { ToolRegistry } from '../tools/tool-registry';
import {
  answerItemsKey,
  meterReading,
  MeteredConversations,
  type SessionConversation,
} from './context-meter';
import { MeterPlans } from './meter-plans';
import { attachmentsOf, currentAttachments, pendingAttachments } from './sources/question-attachments';

/** After a failed automatic compaction, answers go on with `discard` for this long before another try. */
const compactionPauseMs = 5 * 60_000;

export interface SessionContextOptions {
  engine: ContextEngine;
  store: ChatStore;
  /** The user's shares, threshold, verbatim tail and new chats' strategy. */
  settings: ContextSettingsStore;
  /** The model's window and where that figure came from: the one figure every view shows. */
  window: () => Promise<ContextWindow>;
  /** Told the window a server named when it refused a request as too long: it is kept for the model. */
  onWindowNamed?: (tokens: number) => void;
  /** Told the prompt tokens the server reported for a request it took: a kept window below them is stale. */
  onPromptTaken?: (tokens: number) => void;
  /** The configured model as the context engine knows it: calibration key, id, provider. */
  profile: () => ModelProfile;
  /** The app's one count and room (made from the engine, profile and window when not given). */
  count?: RequestCount;
  /** The model that writes compaction summaries: the one chosen for summaries, else the chat model. */
  model: () => ChatModel;
  vault: () => { name: string; tools: ToolVault };
  /** Every tool: what requests offer, and the system prompt's lines for them. */
  tools: ToolRegistry;
  /** Whether the write tools are offered in the open vault (the user allowed writes there). */
  writesOffered?: () => boolean;
  /** Rules, pinned notes, tools and the agent prompt; without it requests hold the vault tools only. */
  items?: ItemService;
  /** The files attached to the session's messages. */
  attachments?: Pick<AttachmentStore, 'ofSession'>;
  /** Files prepared for the message being typed (AttachmentIntake.peek), for the meter. */
  pendingFiles?: (tokens: readonly string[]) => { file: AttachmentText }[];
  /** A strategy for this run (`kasten ask --strategy`) instead of each session's own. */
  strategy?: ContextStrategy;
  /** The clock of the date the system prompt names and the time the closing reminder gives. */
  now?: () => Date;
  compactionTimeoutMs?: number;
}

/**
 * A session as the context engine sees it: the planner of an answer's requests, the meter's estimate
 * of the next request (with the message being typed), `/compact`, and the session's strategy.
 */
export class SessionContext {
  /** When a session's last automatic compaction failed: answers do not wait for another for a while. */
  private readonly failedCompactions = new Map<string, number>();
  private readonly count: RequestCount;
  private readonly metered = new MeteredConversations(
    (sessionId) => this.options.store.contexts.version(sessionId),
    (sessionId) => {
      const messages = this.options.store.session(sessionId).messages;
      return { messages, ...this.conversation(sessionId, messages) };
    },
  );
  private readonly meterPlans = new MeterPlans(
    (words) => this.options.engine.estimate(this.options.profile(), words).raw,
  );

  constructor(private readonly options: SessionContextOptions) {
    options.engine.configure(engineOptions(options.settings.get()));
    this.count = options.count ?? new RequestCount(options.engine, options.profile, options.window);
  }

  settings(): ContextSettings {
    return this.options.settings.get();
  }

  /** Saves the settings; every request planned from now on follows them. */
  configure(settings: ContextSettings): ContextSettings {
    const saved = this.options.settings.set(settings);
    this.options.engine.configure(engineOptions(saved));
    return saved;
  }

  /** A new chat starts with the strategy the settings name. */
  newSession(sessionId: string): void {
    const { strategy } = this.options.settings.get();
    if (strategy !== 'hybrid') this.options.store.contexts.setStrategy(sessionId, strategy);
  }

  private window(): Promise<ContextWindow> {
    return this.options.window();
  }

  /** A text's tokens for the configured model, calibrated (see RequestCount). */
  tokensOf(text: string): number {
    return this.count.tokensOf(text);
  }

  private budget(window?: ContextWindow): Promise<Budget> {
    return this.count.budget(window);
  }

  /** The most one attached file may take (an item's share of usable), and the window it is in. */
  attachmentRoom(): Promise<{ tokens: number; window: number }> {
    return this.count.attachmentRoom();
  }

  /**
   * The planner of the answer to the session's last question (`messages` end with it); `writes` says
   * whether its requests offer the write tools, when this answer decides otherwise than the vault's switch.
   * `modelWindow`: the window of the model that answers, when that is not the configured one (a saved
   * prompt's `model:`); what its server says of its window is then not kept for the configured model.
   */
  async planner(
    sessionId: string,
    messages: readonly ChatMessage[],
    direct: DirectReferences,
    writes = this.writesOffered(),
    modelWindow?: () => Promise<ContextWindow>,
  ): Promise<RequestPlanner> {
    const question = messages.findLast((message) => message.role === 'user');
    if (!question) throw new AppError('invalid-input', 'There is no question to answer in this session.');
    const earlier = messages.filter((message) => message.id < question.id);
    const words = question.parts.find((part) => part.type === 'text')?.text ?? userText(question.parts);
    const window = modelWindow ? await modelWindow() : await this.window();
    // Summaries of what no longer fits are written by the summary model, not necessarily the chat's.
    return this.plannerFor(
      window,
      sessionId,
      earlier,
      { id: question.id, text: words },
      direct,
      this.options.model,
      writes,
      [],
      this.conversation(sessionId, earlier),
      modelWindow === undefined,
    );
  }

  private writesOffered(): boolean {
    return this.options.writesOffered?.() ?? false;
  }

  /**
   * The linked notes of a question, and the passage it asks about (`selection`), numbered for the
   * session as they are sent.
   */
  async references(sessionId: string, text: string, selection?: NoteSelection): Promise<DirectReferences> {
    const { store } = this.options;
    const numbers = (path: string, title: string) => store.documentNumber(sessionId, path, title);
    const { tools } = this.options.vault();
    const direct = await directReferences(text, tools, numbers);
    return selection ? withSelection(direct, selection, tools, numbers) : direct;
  }

  /**
   * What the next request of a session (or of a new chat) would hold, with `draft` as its question.
   * Planned again only when something besides the draft's words changed, or the words moved past what
   * the last plans hold (see MeterPlans); the conversation is read again only when the session changed.
   */
  async status(
    sessionId: string | undefined,
    draft = '',
    pending: {
      attachments?: string[];
      items?: SendInput['items'];
      /** What the draft brings besides its words: a `/Name` prompt's `{{note}}`. */
      brings?: MessageExtras['context'];
    } = {},
  ): Promise<ContextStatus> {
    const { store, engine } = this.options;
    const window = await this.window();
    const conversation = this.metered.of(sessionId);
    // The draft's notes are numbered as they would be, without numbering them for the session yet.
    const known = new Map(
      sessionId ? store.documents(sessionId).map((entry) => [entry.path, entry.number]) : [],
    );
    let next = known.size + 1;
    const numbers = (path: string) => known.get(path) ?? next++;
    const linked = await directReferences(draft, this.options.vault().tools, numbers);
    const brought = await pending.brings?.(numbers, AbortSignal.timeout(10_000));
    const direct = brought
      ? {
          references: [...brought.references, ...linked.references],
          items: [...brought.items, ...linked.items],
        }
      : linked;
    // The files prepared for the message being typed count as they will when it is sent.
    const files = pendingAttachments(this.options.pendingFiles?.(pending.attachments ?? []) ?? []);
    const extras = this.options.items
      ? await this.options.items.forAnswer({
          sessionId: sessionId ?? '',
          question: draft,
          pinnedLimit: (await this.budget(window)).pinned,
          numbers,
          signal: AbortSignal.timeout(10_000),
          estimate: true,
          pending: pending.items,
        })
      : null;
    const writes = this.writesOffered();
    const sources = this.meterSources(sessionId, conversation.version, window, writes, [
      direct.items,
      files,
      extras && answerItemsKey(extras),
    ]);
    const request = this.meterPlans.request(sources, draft, (words) => {
      const current = { id: Number.MAX_SAFE_INTEGER, text: words };
      const planner = this.plannerFor(
        window,
        sessionId ?? '',
        conversation.messages,
        current,
        direct,
        this.options.model,
        writes,
        files,
        conversation,
      );
      if (extras) planner.useExtras(extras);
      return planner.previewPlan();
    });
    const typed = draft.trim() !== '' || (pending.attachments?.length ?? 0) > 0;
    return meterReading(request, {
      profile: this.options.profile(),
      window,
      typed,
      messages: conversation.messages,
      calibration: engine.calibration(this.options.profile()),
      compactions: sessionId ? store.contexts.compactions(sessionId).length : 0,
    });
  }

  /**
   * Everything the meter's plan of a session's next request depends on besides the draft's words, as a
   * key: the session as of `version`, the window, model, calibration and settings, the day and time the
   * request names, and what the draft brings (`drafted`: its linked notes, files, items).
   */
  private meterSources(
    sessionId: string | undefined,
    version: string,
    window: ContextWindow,
    writes: boolean,
    drafted: unknown[],
  ): string {
    const { settings, engine } = this.options;
    const profile = this.options.profile();
    const now = this.options.now?.() ?? new Date();
    return JSON.stringify([
      sessionId ?? null,
      version,
      window.tokens,
      profile,
      engine.calibration(profile).ratio,
      settings.get(),
      this.options.strategy ?? null,
      writes,
      this.options.vault().name,
      promptDate(now),
      timeReminder(now),
      drafted,
    ]);
  }

  /** What each pinned note of a session takes in its next request, by path, as the meter counts it. */
  async pinnedTokens(sessionId: string): Promise<ReadonlyMap<string, number>> {
    const { pinned } = await this.status(sessionId);
    return new Map(pinned.map((entry) => [entry.path, entry.tokens]));
  }

  /** `/compact [focus]`: summarizes the session's older messages now; the messages stay. */
  async compact(
    sessionId: string,
    focus: string | undefined,
    signal: AbortSignal,
  ): Promise<{ compaction: SessionCompaction | null; notice: string | null }> {
    const { store } = this.options;
    const before = store.contexts.compactions(sessionId).length;
    const messages = store.session(sessionId).messages;
    const window = await this.window();
    const current = { id: Number.MAX_SAFE_INTEGER, text: '' };
    const planner = this.plannerFor(
      window,
      sessionId,
      messages,
      current,
      null,
      this.options.model,
      this.writesOffered(),
    );
    const notice = await planner.compactNow(focus, signal);
    const after = store.contexts.compactions(sessionId);
    return { compaction: after.length > before ? after.at(-1)! : null, notice };
  }

  setStrategy(sessionId: string, strategy: ContextStrategy): void {
    this.options.store.contexts.setStrategy(sessionId, strategy);
  }

  /** The files of a session, and `earlier` as the conversation requests give it. */
  private conversation(sessionId: string, earlier: readonly ChatMessage[]): SessionConversation {
    const files = sessionId ? (this.options.attachments?.ofSession(sessionId) ?? []) : [];
    return { files, history: conversationOf(earlier, attachmentsOf(files)) };
  }

  private plannerFor(
    window: ContextWindow,
    sessionId: string,
    earlier: readonly ChatMessage[],
    current: { id: number; text: string },
    direct: DirectReferences | null,
    model: () => ChatModel,
    writes: boolean,
    extraItems: readonly ContextItemInput[] = [],
    { files, history } = this.conversation(sessionId, earlier),
    /** Whether what the server says of its window is kept for the configured model. */
    configuredModel = true,
  ): RequestPlanner {
    const { store, items, tools } = this.options;
    const vault = this.options.vault();
    const numbers = (path: string, title: string) => store.documentNumber(sessionId, path, title);
    // One clock reading per answer: its requests name the same day, even across midnight.
    const now = this.options.now?.() ?? new Date();
    return new RequestPlanner({
      engine: this.options.engine,
      records: store.contexts,
      sessionId,
      model,
      profile: this.options.profile(),
      window,
      strategy:
        this.options.strategy ??
        (sessionId ? store.contexts.strategy(sessionId) : this.options.settings.get().strategy),
      system: (names, documents, replacement) =>
        systemPrompt({ vaultName: vault.name, tools: tools.inOrder(names), documents, now, replacement }),
      reminders: [timeReminder(now)],
      previous: earlier.findLast((message) => message.requests.length > 0)?.requests.at(-1) ?? null,
      // Write tools that are not offered are not sent at all, so they cost nothing in the window. With the
      // items service, the vault's tools come with the modes its settings give them.
      tools: [...(items ? [] : tools.family('vault')), ...(writes ? tools.family('write') : [])],
      history,
      current,
      items: [...currentAttachments(files, current.id), ...extraItems, ...(direct?.items ?? [])],
      extras:
        items && sessionId
          ? (signal) =>
              items.forAnswer({
                sessionId,
                question: current.text,
                pinnedLimit: this.options.engine.budget(this.options.profile(), window.tokens).pinned,
                numbers,
                signal,
              })
          : undefined,
      compactionTimeoutMs: this.options.compactionTimeoutMs,
      onWindowLearned: configuredModel ? this.options.onWindowNamed : undefined,
      onPromptTaken: configuredModel ? this.options.onPromptTaken : undefined,
      compactionAllowed: Date.now() - (this.failedCompactions.get(sessionId) ?? 0) > compactionPauseMs,
      onCompactionFailed: () => this.failedCompactions.set(sessionId, Date.now()),
    });
  }
}
