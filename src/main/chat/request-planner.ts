import type { ContextWindow } from '../../shared/chat-domain';
import type {
  ContextKind,
  ContextStrategy,
  PartTokens,
  RequestContext,
  RequestItem,
} from '../../shared/context-domain';
import type { AssembledRequest } from '../context/assemble';
import type { ContextEngine } from '../context/context-engine';
import type { ContextLengthError } from '../context/context-length-error';
import type { ContextItemInput, ConversationMessage, ModelProfile } from '../context/context-types';
import { toolSchemasOf } from '../context/tool-schemas';
import type { ChatModel, LlmMessage, LlmTool } from '../llm/llm-types';
import { ModelError } from '../llm/llm-types';
import type { ContextRecords } from './context-records';

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
  system: string;
  tools: readonly LlmTool[];
  /** Earlier turns, oldest first, without the current question. */
  history: readonly ConversationMessage[];
  current: { id: number; text: string };
  /** The notes the current question links, and later rules, pinned notes and attachments. */
  items: readonly ContextItemInput[];
  compactionTimeoutMs?: number;
  /** Told the window a server stated when it refused a request as too long: later answers plan with it. */
  onWindowLearned?: (tokens: number) => void;
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

/** Tokens kept free for the answer: a quarter of a small window, at most 4,096. */
export function reservedOutputOf(window: number): number {
  return Math.min(4096, Math.floor(window / 4));
}

/**
 * Plans each request of one answer with the context engine: compacts when it says so (storing the
 * summary; the messages stay), falls back to `discard` with a notice when that fails, and records
 * what every request held.
 */
export class RequestPlanner {
  private notices: string[] = [];
  /** The window in force: the configured one, or less once the server said it holds less. */
  private window: number;
  /** Set when a refusal stated the real window: the retry plans with it instead of shrinking blindly. */
  private windowLearned = false;

  constructor(private readonly options: PlannerOptions) {
    this.window = options.window.tokens;
  }

  /** The request for the next step; throws a ModelError when even the essentials do not fit. */
  async plan(
    step: number,
    turn: readonly LlmMessage[],
    reminders: readonly string[],
    aggressive: boolean,
    signal: AbortSignal,
  ): Promise<PlannedRequest> {
    const retry = aggressive;
    if (aggressive && this.windowLearned) aggressive = false;
    this.windowLearned = false;
    let strategy = this.options.strategy;
    let assembled = this.assemble(turn, reminders, aggressive, strategy, undefined);
    if (assembled.compaction && step === 0) {
      const compacted = await this.compact(assembled, signal);
      if (!compacted) strategy = 'discard';
      assembled = this.assemble(turn, reminders, aggressive, strategy, undefined);
    }
    const notices = [...this.notices, ...assembled.notices];
    this.notices = [];
    if (assembled.overflow) throw overflowError(assembled);
    return {
      system: assembled.system,
      messages: assembled.messages,
      tools: this.options.tools,
      maxOutputTokens: reservedOutputOf(this.window),
      raw: assembled.estimate.raw,
      context: recordOf(assembled, step, strategy, retry, notices, this.calibration()),
    };
  }

  /** What the next request would hold as things stand, without compacting: the context meter's view. */
  preview(): RequestContext {
    const assembled = this.assemble([], [], false, this.options.strategy, undefined);
    return recordOf(assembled, 0, this.options.strategy, false, assembled.notices, this.calibration());
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

  /** What the provider reported for a sent request: the record gets it, the calibration learns from it. */
  reported(request: PlannedRequest, promptTokens: number | null): RequestContext {
    const observation = this.options.engine.recordUsage(this.options.profile, request.raw, promptTokens);
    const context = { ...request.context, reported: promptTokens };
    if (observation.verdict === 'truncated' && promptTokens !== null) {
      context.notices = [
        ...context.notices,
        `The server counted ${promptTokens} prompt tokens, far fewer than the ${context.estimated} sent: it may have cut the prompt without saying so.`,
      ];
    }
    return context;
  }

  /** A refusal as too long: the counts it states teach the calibration before the smaller retry. */
  overflowed(request: PlannedRequest, error: ContextLengthError): void {
    this.options.engine.recordOverflow(this.options.profile, request.raw, error);
    // A server that states its limit runs a smaller window than the one planned with: plan with its.
    if (error.available !== null && error.available >= 256 && error.available < this.window) {
      this.window = error.available;
      this.windowLearned = true;
      this.notices.push(
        `The server holds ${error.available} tokens, not the ${this.options.window.tokens} Kasten planned with: ` +
          'requests are planned with its figure now. Set the window in Settings to keep it.',
      );
      this.options.onWindowLearned?.(error.available);
    }
  }

  private calibration() {
    return this.options.engine.calibration(this.options.profile);
  }

  private assemble(
    turn: readonly LlmMessage[],
    reminders: readonly string[],
    aggressive: boolean,
    strategy: ContextStrategy,
    compactNow: { focus?: string } | undefined,
  ): AssembledRequest {
    const { options } = this;
    const latest = options.records.compactions(options.sessionId).at(-1);
    return options.engine.assemble({
      model: options.profile,
      window: this.window,
      reservedOutput: reservedOutputOf(this.window),
      strategy,
      system: options.system,
      tools: toolSchemasOf(options.tools),
      items: options.items,
      summary: latest ? { text: latest.text, coveredIds: latest.coveredIds } : null,
      history: options.history,
      current: options.current,
      turn,
      reminders,
      aggressive,
      compactNow,
    });
  }

  private async compact(assembled: AssembledRequest, signal: AbortSignal): Promise<boolean> {
    const { options } = this;
    const plan = assembled.compaction!;
    const timeout = AbortSignal.timeout(options.compactionTimeoutMs ?? defaultCompactionTimeoutMs);
    const summarizer = {
      summarize: (prompt: string, inner: AbortSignal) =>
        summarize(options.model(), prompt, AbortSignal.any([inner, timeout])),
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
      tokens: outcome.tokens,
      replacedTokens,
      focus: plan.focus ?? null,
    });
    if (outcome.notice) this.notices.push(outcome.notice);
    return true;
  }
}

/** A summary written by the chat model: one request without tools, its text collected. */
async function summarize(model: ChatModel, prompt: string, signal: AbortSignal): Promise<string> {
  let text = '';
  for await (const event of model.stream({
    system: 'You summarize conversations faithfully and concisely.',
    messages: [{ role: 'user', text: prompt }],
    tools: [],
    signal,
  })) {
    if (event.type === 'text') text += event.text;
  }
  return text;
}

function overflowError(assembled: AssembledRequest): ModelError {
  const { needed, available } = assembled.overflow!;
  const largest = [...assembled.items]
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, 3)
    .map((item) => `${item.label} (${item.tokens})`)
    .join(', ');
  return new ModelError(
    `This request needs ${needed} tokens, ${available} are available in the model's window. ` +
      `Largest parts: ${largest}. Compact the chat (/compact), remove a linked note, or start a new chat.`,
    'bad-request',
  );
}

const partOrder: ContextKind[] = [
  'system',
  'tools',
  'rule',
  'pinned',
  'reference',
  'summary',
  'history',
  'attachment',
  'current',
  'tool-results',
];

/** The request context of an assembled request, in calibrated tokens that add up to its estimate. */
function recordOf(
  assembled: AssembledRequest,
  step: number,
  strategy: ContextStrategy,
  retried: boolean,
  notices: string[],
  calibration: { ratio: number; samples: number },
): RequestContext {
  const { estimate, budget } = assembled;
  const itemTokens = spread(
    assembled.items.map((item) => item.tokens),
    estimate.calibrated,
  );
  const items: RequestItem[] = assembled.items.map((item, index) => ({
    ...item,
    tokens: itemTokens[index]!,
  }));
  const parts: PartTokens[] = partOrder
    .map((part) => ({
      part,
      tokens: items.filter((item) => item.kind === part).reduce((sum, item) => sum + item.tokens, 0),
    }))
    .filter((entry) => entry.tokens > 0);
  return {
    step,
    window: budget.window,
    usable: budget.usable,
    estimated: estimate.calibrated,
    reported: null,
    calibration: { ratio: estimate.ratio, samples: calibration.samples },
    strategy,
    parts,
    items,
    dropped: assembled.dropped.map((item) => ({ ...item, tokens: Math.ceil(item.tokens * estimate.ratio) })),
    notices,
    retried,
  };
}

/**
 * Scales local counts to `total` so that they add up to it exactly: each gets its share rounded down,
 * and the tokens left go to the largest remainders.
 */
export function spread(values: readonly number[], total: number): number[] {
  const sum = values.reduce((a, b) => a + b, 0);
  if (sum === 0) return values.map(() => 0);
  const exact = values.map((value) => (value * total) / sum);
  const floors = exact.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - floors[index]! }))
    .sort((a, b) => b.rest - a.rest);
  for (const { index } of order) {
    if (left <= 0) break;
    floors[index]! += 1;
    left--;
  }
  return floors;
}
