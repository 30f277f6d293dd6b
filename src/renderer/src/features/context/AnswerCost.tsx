import type { TokenUsage } from '../../../../shared/chat-domain';
import { answerCostText, priceSourceNames, priceText } from '../../../../shared/cost/cost-text';
import { exactTokens } from './token-format';

/** "12,345 tokens in (2,000 from the cache), 321 out, over 3 requests". */
function tokensText(usage: TokenUsage, requests: number): string {
  const cached = usage.cachedInputTokens ? ` (${exactTokens(usage.cachedInputTokens)} from the cache)` : '';
  const over = requests > 1 ? `, over ${requests} requests` : '';
  return `${exactTokens(usage.inputTokens ?? 0)} tokens in${cached}, ${exactTokens(usage.outputTokens ?? 0)} out${over}`;
}

/** What the whole answer (every model call of it) used and cost, at the price in force when it was written. */
export function AnswerCost({ usage, requests }: { usage: TokenUsage | null; requests: number }) {
  if (!usage || (usage.inputTokens === null && usage.outputTokens === null)) return null;
  const cost = answerCostText(usage.cost);
  const quote = usage.cost?.quote;
  return (
    <dl className="context-facts context-answer" data-testid="context-used-answer">
      <dt>Answer</dt>
      <dd data-testid="context-used-tokens">{tokensText(usage, requests)}</dd>
      {cost !== null && (
        <>
          <dt>Cost</dt>
          <dd data-testid="context-used-cost">
            {cost}
            {quote?.kind === 'priced' && (
              <span className="muted">
                {' '}
                at {priceSourceNames[quote.source]}: {priceText(quote.price)}
              </span>
            )}
            {quote?.kind === 'unknown' && (
              <span className="muted"> — set this model’s price in Settings → Cost</span>
            )}
          </dd>
        </>
      )}
    </dl>
  );
}
