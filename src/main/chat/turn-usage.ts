import type { TokenUsage } from '../../shared/chat-domain';
import type { PriceQuote } from '../../shared/cost/cost-domain';
import { addCallCost, addOtherModelCall } from '../../shared/cost/cost-math';
import type { SummaryCall } from '../request/request-planner';

/** What an answer's calls add up to so far. */
interface Counted {
  usage: TokenUsage;
}

/** How an answer is priced: its model, that model's quote (null: not priced), another model's. */
interface Pricing {
  model: { name: string };
  price: Promise<PriceQuote> | null;
  priceOf?: (model: string) => Promise<PriceQuote>;
}

/** Adds a call of the answering model to the answer's usage, priced at the quote the answer started with. */
export async function countCall(
  state: Counted,
  price: Promise<PriceQuote> | null,
  usage: TokenUsage,
): Promise<void> {
  state.usage = addUsage(state.usage, usage);
  if (price) state.usage.cost = addCallCost(state.usage.cost, await price, usage);
}

/**
 * Adds the calls that summarized older messages while a request was planned to the answer's usage and
 * cost: the answer waited for them, and the server bills them as it bills the answer's own. Those of
 * another model (the summary model) are priced at its quote.
 */
export async function countSummaryCalls(
  calls: readonly SummaryCall[],
  state: Counted,
  { model, price, priceOf }: Pricing,
): Promise<void> {
  for (const call of calls) {
    if (call.model === model.name || !priceOf || !price) {
      await countCall(state, price, call.usage);
      continue;
    }
    state.usage = addUsage(state.usage, call.usage);
    state.usage.cost = addOtherModelCall(
      state.usage.cost,
      await price,
      await priceOf(call.model),
      call.usage,
    );
  }
}

/** Two usages summed; a figure neither reported stays null. */
function addUsage(total: TokenUsage, step: TokenUsage): TokenUsage {
  const sum = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
  return {
    ...total,
    inputTokens: sum(total.inputTokens, step.inputTokens),
    outputTokens: sum(total.outputTokens, step.outputTokens),
    cachedInputTokens: sum(total.cachedInputTokens ?? null, step.cachedInputTokens ?? null),
    cacheWriteTokens: sum(total.cacheWriteTokens ?? null, step.cacheWriteTokens ?? null),
  };
}
