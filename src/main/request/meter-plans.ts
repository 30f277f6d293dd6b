import type { RequestContext } from '../../shared/context-domain';
import type { AssembledRequest } from './assemble';
import { calibrated } from './count/calibration';
import type { PreviewPlan } from './request-planner';

/** Sources of the next request the meter keeps plans for at once: the open chat, its pinned notes' view. */
const keptSources = 4;
/** How far past the words typed the meter looks at first, in local tokens: a paragraph or so. */
const firstReach = 256;
const leastReach = 8;
/** What the look-ahead adds to the words, `reach` times: a common word of a token or so. */
const fillerWord = ' and';

/** Drafts planned alike: from `from` to `to` local tokens of words, as `plan` with `tokens` of them. */
interface Span {
  plan: PreviewPlan;
  tokens: number;
  decisions: string;
  from: number;
  to: number;
  /** How far the next look-ahead goes: halved when one crossed a change, doubled when it did not. */
  reach: number;
}

/**
 * The context meter's plans of a chat's next request, by what it is planned from apart from the words
 * being typed (`sources`: the conversation, the window, the settings, the notes the words link, the
 * items...). The words count in a request only by their number of tokens, and each decision a plan
 * makes (where the history is cut, which old results are masked, which items and tools fit, whether the
 * summary fits) compares counts that the decisions before it fixed with the room the words leave. So
 * when two drafts are planned alike, every draft whose count lies between theirs is planned alike too,
 * and is counted from one of them — its words' item takes their new count — rather than planned. A
 * draft outside the span it knows is planned, with one more plan a little further on in the direction
 * the typing went, to widen the span.
 *
 * Items cut to the room left (`cut`) or given as the passages that fit it (`chunks`) are the exception
 * — what fits of them does not change one way as the room shrinks — and so is a request that
 * overflows: such drafts are each planned.
 */
export class MeterPlans {
  private readonly spans = new Map<string, Span>();

  constructor(
    /** The local tokens of the words, as the plans count them. */
    private readonly tokensOf: (words: string) => number,
  ) {}

  /** The request the draft `words` would make, planned with `plan` only when no span holds it. */
  request(sources: string, words: string, plan: (words: string) => PreviewPlan): RequestContext {
    const tokens = this.tokensOf(words);
    const known = this.spans.get(sources);
    this.spans.delete(sources);
    if (known && known.from <= tokens && tokens <= known.to) {
      this.keep(sources, known);
      return recordedAt(known, tokens);
    }
    const planned = plan(words);
    const decisions = decisionsOf(planned.assembled);
    const span: Span = { plan: planned, tokens, decisions, from: tokens, to: tokens, reach: firstReach };
    if (known && known.decisions === decisions) {
      span.from = Math.min(known.from, tokens);
      span.to = Math.max(known.to, tokens);
    }
    // New sources get one plan: they may well change again before the words do.
    if (known && spannable(planned.assembled)) this.widen(span, known.reach, words, known.to, plan);
    this.keep(sources, span);
    return planned.record(planned.assembled);
  }

  /** Plans a draft `reach` tokens further on the way the typing went; the span holds it too when alike. */
  private widen(
    span: Span,
    reach: number,
    words: string,
    before: number,
    plan: (words: string) => PreviewPlan,
  ): void {
    const further =
      span.tokens > before
        ? words + fillerWord.repeat(reach)
        : words.slice(0, Math.floor(words.length * Math.max(0, 1 - reach / span.tokens)));
    if (further === words) return;
    const probe = plan(further);
    const alike = spannable(probe.assembled) && decisionsOf(probe.assembled) === span.decisions;
    span.reach = Math.min(firstReach * 4, Math.max(leastReach, alike ? reach * 2 : reach / 2));
    if (!alike) return;
    const tokens = this.tokensOf(further);
    span.from = Math.min(span.from, tokens);
    span.to = Math.max(span.to, tokens);
  }

  private keep(sources: string, span: Span): void {
    this.spans.set(sources, span);
    const oldest = this.spans.keys().next().value;
    if (this.spans.size > keptSources && oldest !== undefined) this.spans.delete(oldest);
  }
}

/** The span's request with `tokens` of words: its plan, with the words' item counted anew. */
function recordedAt(span: Span, tokens: number): RequestContext {
  const { assembled, record } = span.plan;
  const more = tokens - span.tokens;
  const raw = assembled.estimate.raw + more;
  return record({
    ...assembled,
    items: assembled.items.map((item) =>
      item.kind === 'current' ? { ...item, tokens: item.tokens + more } : item,
    ),
    parts: { ...assembled.parts, current: assembled.parts.current + more },
    estimate: { ...assembled.estimate, raw, calibrated: calibrated(raw, assembled.estimate.ratio) },
  });
}

/** Everything a plan decided, apart from what the words themselves count. */
function decisionsOf({ items, dropped, history, notices, overflow }: AssembledRequest): string {
  const others = items.map((item) => (item.kind === 'current' ? { ...item, tokens: 0 } : item));
  return JSON.stringify([others, dropped, history, notices, overflow]);
}

/** Whether drafts between this plan and another decided alike are planned alike too (see MeterPlans). */
function spannable({ items, overflow }: AssembledRequest): boolean {
  return (
    overflow === null &&
    !items.some((item) => item.kind !== 'history' && (item.form === 'cut' || item.form === 'chunks'))
  );
}
