import type { AnswerCost, PriceSource, TokenPrice, UsageTotal } from './cost-domain';

/** "$0.0123", "$1.20": cents for a dollar and more, four decimals below (an answer often costs less than a cent). */
export function usdText(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.0001) return '< $0.0001';
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** What an answer cost in words; null for a local server's, which cost nothing to show. */
export function answerCostText(cost: AnswerCost | undefined): string | null {
  if (!cost || cost.quote.kind === 'local') return null;
  if (cost.quote.kind === 'unknown' || cost.usd === null) return 'price unknown';
  const unreported =
    cost.unreported > 0
      ? ` (${cost.unreported} call${cost.unreported === 1 ? '' : 's'} without usage not counted)`
      : '';
  return `${usdText(cost.usd)}${unreported}`;
}

/** A chat's cost in words: null when it was held with local servers only. */
export function totalCostText(total: UsageTotal): string | null {
  if (total.hosted === 0) return null;
  if (total.usd === null) return 'price unknown';
  const unpriced =
    total.unpriced > 0
      ? ` + ${total.unpriced} answer${total.unpriced === 1 ? '' : 's'} at unknown price`
      : '';
  return `${usdText(total.usd)}${unpriced}`;
}

function perMillion(value: number): string {
  return `$${value.toFixed(value > 0 && value < 0.01 ? 4 : 2)}`;
}

/** "$2.50 in · $1.25 cached · $10.00 out per million tokens". */
export function priceText(price: TokenPrice): string {
  const cached = price.cachedInput === null ? '' : ` · ${perMillion(price.cachedInput)} cached`;
  return `${perMillion(price.input)} in${cached} · ${perMillion(price.output)} out per million tokens`;
}

export const priceSourceNames: Record<PriceSource, string> = {
  user: 'your price',
  server: 'the server’s price',
  list: 'list price',
};
