import {
  contextKinds,
  type CalibrationInfo,
  type ContextStrategy,
  type DroppedItem,
  type PartTokens,
  type RequestContext,
  type RequestItem,
} from '../../../shared/context-domain';
import type { AssembledRequest } from '../assemble';
import { calibrated, type UsageVerdict } from '../count/calibration';
import { ModelError } from '../../llm/llm-types';

/** What the user should know about a response's reported usage, if anything. */
export function usageNotice(
  verdict: UsageVerdict,
  reported: number | null,
  estimated: number,
): string | null {
  if (verdict === 'no-report') {
    return 'The server reported no token usage: the figures are Kasten’s own count, not calibrated.';
  }
  if (verdict === 'absurd') {
    return `The server reported ${reported} prompt tokens for about ${estimated}: not believed, and not learned from.`;
  }
  if (verdict === 'truncated') {
    return `The server counted ${reported} prompt tokens, far fewer than the ${estimated} sent: it may have cut the prompt without saying so.`;
  }
  return null;
}

/**
 * The prompt tokens a server said it read from its cache, when that can be believed: more than the
 * prompt it counted cannot be, and is not shown.
 */
export function cachedOf(
  reported: number | null,
  cached: number | null,
): { cached: number | null; notice: string | null } {
  if (cached === null || cached < 0) return { cached: null, notice: null };
  if (reported !== null && cached <= reported) return { cached, notice: null };
  return {
    cached: null,
    notice: `The server reported ${cached} prompt tokens from its cache for a prompt of ${reported ?? 'unknown size'}: not believed.`,
  };
}

/** A request that does not fit the model's window, even shortened; carries its record for the user. */
export class ContextOverflowError extends ModelError {
  constructor(
    readonly context: RequestContext,
    /** The request was sent (and refused); otherwise it was never sent, as planning showed it cannot fit. */
    readonly sent: boolean,
  ) {
    const { needed, available } = context.overflow!;
    const largest = [...context.items]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, 3)
      .map((item) => `${item.label} (${item.tokens})`)
      .join(', ');
    super(
      `This request needs ${needed} tokens, ${available} are available in the model's window. ` +
        `Largest parts: ${largest}. Compact the chat (/compact), remove a linked note, or start a new chat.`,
      'bad-request',
    );
  }
}

/** The request as planned, marked as one that does not fit. */
export function tooLong(
  context: RequestContext,
  needed: number,
  available: number,
  sent = false,
): ContextOverflowError {
  return new ContextOverflowError({ ...context, overflow: { needed, available } }, sent);
}

/** The request context of an assembled request, in calibrated tokens that add up to its estimate. */
export function recordOf(
  assembled: AssembledRequest,
  step: number,
  strategy: ContextStrategy,
  retried: boolean,
  notices: string[],
  calibration: CalibrationInfo,
  /** Items offered but not chosen, already in the provider's tokens. */
  unchosen: readonly DroppedItem[] = [],
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
  const parts: PartTokens[] = contextKinds
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
    calibration: { ...calibration, ratio: estimate.ratio },
    strategy,
    parts,
    items,
    dropped: [
      ...unchosen,
      ...assembled.dropped.map((item) => ({ ...item, tokens: calibrated(item.tokens, estimate.ratio) })),
    ],
    notices,
    retried,
    maskedBefore: assembled.history.maskedBefore,
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
