import type { ContextWindow } from '../../shared/chat-domain';
import type { ContextStrategy, DroppedItem, RequestContext } from '../../shared/context-domain';
import type { AssembledRequest } from './assemble';
import type { ContextEngine } from './context-engine';
import type { ContextLengthError } from './context-length-error';
import type {
  ContextItemInput,
  ConversationMessage,
  ModelProfile,
  OfferedTool,
  SentItem,
} from './context-types';
import type { HistoryCut } from './history/history-plan';
import { toolSchemasOf } from './sources/tool-schemas';
import type { ChatModel, LlmMessage, LlmTool, LlmUsage } from '../llm/llm-types';
import type { AnswerItems } from './sources/answer-items';
import { summarize } from '../chat/compaction-summarizer';
import type { ContextRecords } from './record/context-records';
import { cachedOf, recordOf, tooLong, usageNotice } from './record/request-record';

/** How long one summarization request may take before compaction falls back to `discard`. */
const defaultCompactionTimeoutMs = 120_000;

export interface PlannerOptions {
  engine: ContextEngine;
  records: ContextRecords;
  sessionId: string;
  /** The model that writes summaries: the chat model unless the user picked another. Asked when needed. */
  model: () => ChatModel;
  profile: ModelProfile;
  window: ContextWindow;
  strategy: ContextStrategy;
  /**
   * The system prompt for the tools a request offers, whether notes are pinned, and the agent prompt
   * when the user has it replace Kasten's instructions.
   */
  system: (tools: readonly string[], documents: boolean, replacement: string | null) => string;
  /** Closing every request of the answer, before the turn's own (the time of day). */
  reminders?: readonly string[];
  /** The chat's last request before this answer: this answer's history is cut no earlier than it was. */
  previous?: RequestContext | null;
  /** Tools in every request, with how each came in (`always` unless the answer's items say). */
  tools: readonly LlmTool[];
  /** Earlier turns, oldest first, without the current question. */
  history: readonly ConversationMessage[];
  current: { id: number; text: string };
  /** The notes the current question links. */
  items: readonly ContextItemInput[];
  /**
   * The rest of the answer's items — rules, pinned notes, tools chosen for the question, the agent
   * prompt — asked for once, before the first request (it may start MCP servers or embed the question).
   */
  extras?: (signal: AbortSignal) => Promise<AnswerItems>;
  compactionTimeoutMs?: number;
  /** Told the window a server stated when it refused a request as too long: later answers plan with it. */
  onWindowLearned?: (tokens: number) => void;
  /** Told the prompt tokens a server reported for a request it took. */
  onPromptTaken?: (tokens: number) => void;
  /** False while a recent compaction of the session failed: the next answers do not wait for another. */
  compactionAllowed?: boolean;
  /** Told when a compaction failed, so that the session does not try again at once. */
  onCompactionFailed?: () => void;
}

/** A request as the meter previews it, and how it is recorded. */
export interface PreviewPlan {
  assembled: AssembledRequest;
  record: (assembled: AssembledRequest) => RequestContext;
}

/** One request, ready to send, with the record of what it holds. */
export interface PlannedRequest {
  system: string;
  messages: LlmMessage[];
  tools: readonly LlmTool[];
  maxOutputTokens: number;
  context: RequestContext;
  /** The local count the calibration learns against. */
  raw: number;
}

/**
 * Plans each request of one answer with the context engine: compacts when it says so (storing the
 * summary; the messages stay), falls back to `discard` with a notice when that fails, and records
 * what every request held.
 */
/** A model call that wrote a compaction summary: which model, and what its server reported it used. */
export interface SummaryCall {
  model: string;
  usage: LlmUsage;
}

export class RequestPlanner {
  private notices: string[] = [];
  /** The window in force: the configured one, or less once the server said it holds less. */
  private window: number;
  /** Set when a refusal stated the real window: the retry plans with it instead of shrinking blindly. */
  private windowLearned = false;
  /** Whether a request of this answer taught the calibration yet: it counts answers, not requests. */
  private answerLearned = false;
  /** The answer's items once asked for (see `extras`). */
  private extras: AnswerItems | null = null;
  /** The tools chosen for the question by the answer's first request: its later requests offer them too. */
  private chosenTools: ReadonlySet<string> | null = null;
  /** The question's linked notes as the answer's first request gave them: its later requests replay them. */
  private sent = new Map<ContextItemInput, SentItem>();
  /** The calls that wrote compaction summaries for this answer, not yet counted in its usage. */
  private summaryCalls: SummaryCall[] = [];
  /** Where the last request cut the history, and under how many summarized messages. */
  private cut: { summarized: number; cut: HistoryCut } | null;

  constructor(private readonly options: PlannerOptions) {
    this.window = options.window.tokens;
    this.cut = cutOf(options.previous ?? null);
  }

  /** Asks for the answer's rules, pinned notes and chosen tools; the first request waits for them. */
  async prepare(signal: AbortSignal): Promise<void> {
    if (this.extras === null && this.options.extras) this.extras = await this.options.extras(signal);
  }

  /** Uses items already decided (the meter's preview, which must not start MCP servers or wait). */
  useExtras(extras: AnswerItems): void {
    this.extras = extras;
  }

  /** The message the answer is for. */
  get questionId(): number {
    return this.options.current.id;
  }

  /**
   * The question's linked notes as the answer's first request sent them (cut or summarized as they had
   * to be): kept with the question, later requests replay them exactly so. Empty when it links none.
   */
  get sentReferences(): string {
    return [...this.sent.values()].map((item) => item.text).join('\n\n');
  }

  /** The request for the next step; throws a ModelError when even the essentials do not fit. */
  async plan(
    step: number,
    turn: readonly LlmMessage[],
    reminders: readonly string[],
    aggressive: boolean,
    signal: AbortSignal,
  ): Promise<PlannedRequest> {
    await this.prepare(signal);
    const retry = aggressive;
    if (aggressive && this.windowLearned) aggressive = false;
    this.windowLearned = false;
    let strategy = this.options.strategy;
    let assembled = this.assemble(turn, reminders, aggressive, strategy, undefined);
    if (assembled.compaction && step === 0) {
      const compacted = this.options.compactionAllowed !== false && (await this.compact(assembled, signal));
      if (!compacted) {
        if (this.options.compactionAllowed !== false) this.options.onCompactionFailed?.();
        else
          this.notices.push(
            'Older messages are left out of this request: summarizing them failed a moment ago.',
          );
        strategy = 'discard';
      }
      assembled = this.assemble(turn, reminders, aggressive, strategy, undefined);
    }
    const notices = [...this.notices, ...(this.extras?.notices ?? []), ...assembled.notices];
    this.notices = [];
    const context = recordOf(assembled, step, strategy, retry, notices, this.calibration(), this.unchosen());
    if (assembled.overflow) throw tooLong(context, assembled.overflow.needed, assembled.overflow.available);
    const sent = new Set(assembled.items.filter((item) => item.kind === 'tools').map((item) => item.label));
    this.chosenTools ??= sent;
    this.cut = cutOf(context);
    if (step === 0) {
      const given = assembled.references.map(
        ({ input, text, form, reason }) => [input, { text, form, reason }] as const,
      );
      this.sent = new Map(given);
    }
    return {
      system: assembled.system,
      messages: assembled.messages,
      tools: this.allTools().filter((tool) => sent.has(tool.name)),
      maxOutputTokens: assembled.budget.reservedOutput,
      raw: assembled.estimate.raw,
      context,
    };
  }

  /**
   * What the next request would hold as things stand, without compacting: the context meter's view,
   * before it is recorded and with how it is recorded — the meter records the request of another draft
   * from it when only the count of the words differs (see MeterPlans).
   */
  previewPlan(): PreviewPlan {
    const { strategy } = this.options;
    const assembled = this.assemble([], [], false, strategy, undefined);
    const extraNotices = this.extras?.notices ?? [];
    const [calibration, unchosen] = [this.calibration(), this.unchosen()];
    return {
      assembled,
      record: (request) =>
        recordOf(request, 0, strategy, false, [...extraNotices, ...request.notices], calibration, unchosen),
    };
  }

  /** `/compact [focus]`: summarizes what the tail does not keep, whatever the threshold says. */
  async compactNow(focus: string | undefined, signal: AbortSignal): Promise<string | null> {
    const assembled = this.assemble([], [], false, this.options.strategy, { focus });
    if (!assembled.compaction) return 'There is nothing old enough to summarize yet.';
    const compacted = await this.compact(assembled, signal);
    const notice = this.notices.join(' ') || null;
    this.notices = [];
    return compacted ? notice : (notice ?? 'The summary could not be made.');
  }

  /** A text's tokens in the provider's count (calibrated), as every figure the user sees. */
  tokensOf(text: string): number {
    return this.options.engine.estimate(this.options.profile, text).calibrated;
  }

  /**
   * What the provider reported for a sent request: the record gets it (with the prompt tokens it read
   * from its cache), the calibration learns from it.
   */
  /** The summary calls made since last asked (while planning a request), for the answer's usage and cost. */
  takeSummaryCalls(): SummaryCall[] {
    return this.summaryCalls.splice(0);
  }

  reported(
    request: PlannedRequest,
    usage: Pick<LlmUsage, 'inputTokens' | 'cachedInputTokens'>,
  ): RequestContext {
    const promptTokens = usage.inputTokens;
    const { engine, profile } = this.options;
    const observation = engine.recordUsage(profile, request.raw, promptTokens, !this.answerLearned);
    if (observation.verdict === 'calibrated') this.answerLearned = true;
    // A prompt the server took whole is as large as it says: its window holds at least that much.
    if (promptTokens !== null && observation.verdict !== 'absurd') this.options.onPromptTaken?.(promptTokens);
    const cache = cachedOf(promptTokens, usage.cachedInputTokens ?? null);
    const context = { ...request.context, reported: promptTokens, cached: cache.cached };
    const notices = [usageNotice(observation.verdict, promptTokens, context.estimated), cache.notice];
    context.notices = [...context.notices, ...notices.filter((notice) => notice !== null)];
    return context;
  }

  /** A refusal as too long: the counts it states teach the calibration before the smaller retry. */
  overflowed(request: PlannedRequest, error: ContextLengthError): void {
    const { engine, profile } = this.options;
    const observation = engine.recordOverflow(profile, request.raw, error, !this.answerLearned);
    if (observation.verdict === 'calibrated') this.answerLearned = true;
    // A server that states its limit runs a smaller window than the one planned with: plan with its.
    if (error.available !== null && error.available >= 256 && error.available < this.window) {
      this.window = error.available;
      this.windowLearned = true;
      this.notices.push(
        `The server holds ${error.available} tokens, not the ${this.options.window.tokens} Kasten planned with: ` +
          'requests are planned with its figure now, and Kasten keeps it for this model.',
      );
      this.options.onWindowLearned?.(error.available);
    }
  }

  /** The `agent` items the question is not about: recorded as left out, with what they would cost. */
  private unchosen(): readonly DroppedItem[] {
    return this.extras?.unchosen ?? [];
  }

  private calibration() {
    return this.options.engine.calibration(this.options.profile);
  }

  /** The tools in every request of the answer. */
  private fixedTools(): LlmTool[] {
    return [...this.options.tools, ...(this.extras?.tools.map((entry) => entry.tool) ?? [])];
  }

  /** Every tool the answer may offer: those in every request and those chosen for the question. */
  private allTools(): LlmTool[] {
    return [...this.fixedTools(), ...(this.extras?.candidateTools ?? [])];
  }

  private assemble(
    turn: readonly LlmMessage[],
    reminders: readonly string[],
    aggressive: boolean,
    strategy: ContextStrategy,
    compactNow: { focus?: string } | undefined,
  ): AssembledRequest {
    const { options, extras, chosenTools } = this;
    const latest = options.records.compactions(options.sessionId).at(-1);
    const includes = new Map((extras?.tools ?? []).map((entry) => [entry.tool.name, entry.include]));
    const optional = new Set(extras?.tools.filter((entry) => entry.optional).map((entry) => entry.tool.name));
    const offered = [...options.items, ...(extras?.items ?? [])];
    // Once the first request chose the question's tools, the answer's later requests offer the same ones.
    const items = chosenTools ? offered.filter((item) => !item.tool) : offered;
    const chosen: OfferedTool[] = chosenTools
      ? offered.flatMap((item) =>
          item.tool && chosenTools.has(item.tool.name)
            ? [{ ...item.tool, include: 'agent' as const, score: item.score }]
            : [],
        )
      : [];
    const summarized = latest?.coveredIds.length ?? 0;
    return options.engine.assemble({
      model: options.profile,
      window: this.window,
      strategy,
      system: (tools) =>
        options.system(
          tools,
          items.some((item) => item.kind === 'pinned'),
          extras?.agentPrompt?.placement === 'system' ? extras.agentPrompt.text : null,
        ),
      tools: [
        ...toolSchemasOf(this.fixedTools()).map((schema) => ({
          ...schema,
          include: includes.get(schema.name) ?? 'always',
          optional: optional.has(schema.name),
        })),
        ...chosen,
      ],
      items,
      agentPrompt: extras?.agentPrompt?.placement === 'message' ? extras.agentPrompt.text : null,
      summary: latest ? { text: latest.text, coveredIds: latest.coveredIds } : null,
      history: options.history,
      current: options.current,
      turn,
      reminders: [...(options.reminders ?? []), ...reminders],
      aggressive,
      compactNow,
      previousCut: this.cut?.summarized === summarized ? this.cut.cut : null,
      sent: this.sent,
    });
  }

  private async compact(assembled: AssembledRequest, signal: AbortSignal): Promise<boolean> {
    const { options } = this;
    const plan = assembled.compaction!;
    const timeout = AbortSignal.timeout(options.compactionTimeoutMs ?? defaultCompactionTimeoutMs);
    const model = options.model();
    const summarizer = {
      summarize: (prompt: string, inner: AbortSignal) =>
        summarize(model, prompt, AbortSignal.any([inner, timeout]), (usage) =>
          this.summaryCalls.push({ model: model.name, usage }),
        ),
    };
    const outcome = await options.engine.compact(options.profile, plan, summarizer, signal);
    if (!outcome.ok) {
      this.notices.push(outcome.notice);
      return false;
    }
    const covered = new Set(outcome.summary.coveredIds);
    const replacedTokens = plan.messages
      .filter((entry) => covered.has(entry.id))
      .reduce(
        (sum, entry) =>
          sum + options.engine.estimate(options.profile, JSON.stringify(entry.message)).calibrated,
        0,
      );
    options.records.addCompaction(options.sessionId, {
      text: outcome.summary.text,
      coveredIds: [...covered],
      // In the provider's tokens, as every figure the user sees.
      tokens: Math.ceil(outcome.tokens * this.calibration().ratio),
      replacedTokens,
      focus: plan.focus ?? null,
    });
    if (outcome.notice) this.notices.push(outcome.notice);
    return true;
  }
}

/** Where a request cut its history, and under how many summarized messages (a compaction starts anew). */
function cutOf(request: RequestContext | null): { summarized: number; cut: HistoryCut } | null {
  if (!request) return null;
  const summary = request.items.find((item) => item.kind === 'summary');
  const history = request.items.find((item) => item.kind === 'history');
  return {
    summarized: summary?.messageIds?.length ?? 0,
    cut: { firstId: history?.messageIds?.[0] ?? null, maskedBefore: request.maskedBefore ?? null },
  };
}
