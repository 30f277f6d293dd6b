import type { TokenUsage } from '../chat-domain';
import type { AnswerCost, PriceQuote, TokenPrice, UsageTotal } from './cost-domain';

/**
 * What one model call cost in US dollars, or null when the server did not report its usage. The prompt
 * (`inputTokens`, cache reads and writes included) is priced in three parts: read from the cache at the
 * cached price, written to it at the cache-write price (input when none is given), the rest at the input price.
 */
export function callCost(usage: TokenUsage, price: TokenPrice): number | null {
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === null || outputTokens === null) return null;
  const cached = Math.min(Math.max(usage.cachedInputTokens ?? 0, 0), inputTokens);
  const written = Math.min(Math.max(usage.cacheWriteTokens ?? 0, 0), inputTokens - cached);
  const dollars =
    (inputTokens - cached - written) * price.input +
    cached * (price.cachedInput ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    outputTokens * price.output;
  return dollars / 1_000_000;
}

/** An answer's cost so far, or nothing yet at its `quote` (no dollars unless priced). */
function costSoFar(cost: AnswerCost | undefined, quote: PriceQuote): AnswerCost {
  return cost ?? { quote, usd: quote.kind === 'priced' ? 0 : null, unreported: 0 };
}

/** The answer's cost with one more call added: its usage priced at the quote the answer started with. */
export function addCallCost(cost: AnswerCost | undefined, quote: PriceQuote, usage: TokenUsage): AnswerCost {
  const before = costSoFar(cost, quote);
  if (quote.kind !== 'priced') return before;
  const dollars = callCost(usage, quote.price);
  if (dollars === null) return { ...before, unreported: before.unreported + 1 };
  return { ...before, usd: (before.usd ?? 0) + dollars };
}

/**
 * The answer's cost with a call of another model added (a compaction summary by the summary model):
 * priced at that model's `quote`, while the answer keeps its own. A hosted call at no known price is
 * counted as unreported, so `usd` says it leaves something out.
 */
export function addOtherModelCall(
  cost: AnswerCost | undefined,
  answerQuote: PriceQuote,
  quote: PriceQuote,
  usage: TokenUsage,
): AnswerCost {
  const before = costSoFar(cost, answerQuote);
  if (quote.kind === 'local') return before;
  const dollars = quote.kind === 'priced' ? callCost(usage, quote.price) : null;
  if (dollars === null) return { ...before, unreported: before.unreported + 1 };
  return { ...before, usd: (before.usd ?? 0) + dollars };
}

/** A chat's tokens and cost: the sum of its answers' usage as each was stored. */
export function usageTotal(usages: readonly (TokenUsage | null)[]): UsageTotal {
  const total: UsageTotal = {
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    usd: null,
    unpriced: 0,
    hosted: 0,
  };
  for (const usage of usages) {
    if (!usage) continue;
    total.inputTokens += usage.inputTokens ?? 0;
    total.cachedInputTokens += usage.cachedInputTokens ?? 0;
    total.outputTokens += usage.outputTokens ?? 0;
    const cost = usage.cost;
    if (!cost || cost.quote.kind === 'local') continue;
    total.hosted++;
    if (cost.quote.kind === 'unknown' || cost.usd === null) total.unpriced++;
    else total.usd = (total.usd ?? 0) + cost.usd;
  }
  return total;
}

/**
 * A price OpenRouter's `/models` gives (`pricing.prompt`: US dollars per token, as a string) per million
 * tokens; null for anything else: missing, not a number, negative (`"-1"`: the price varies), absurd.
 */
export function perMillionFromPerToken(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string' && !/^\s*\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)) return null;
  const perToken = Number(value);
  if (!Number.isFinite(perToken) || perToken < 0 || perToken > 1) return null;
  // Rounded to a millionth of a dollar: per-token strings like "0.0000025" multiply to 2.4999999999999996.
  return Math.round(perToken * 1_000_000 * 1_000_000) / 1_000_000;
}
