import type { PriceSource } from './cost/cost-domain';
import type { SummaryEstimate } from './model-domain';

const count = (value: number) => Math.round(value).toLocaleString('en-US');

/** "$0.08", "$12.40", "under $0.01". */
function dollars(usd: number): string {
  return usd < 0.01 ? 'under $0.01' : `$${usd.toFixed(2)}`;
}

/**
 * What summarizing the whole vault would take, in sentences, before it starts (Settings, `kasten
 * summarize`): "342 notes have no summary from gpt-4o-mini yet (12 have one). That is 342 model calls:
 * about 410,000 tokens sent and up to 34,200 written, about $0.08 at gpt-4o-mini's list price."
 */
export function describeSummaryEstimate(estimate: SummaryEstimate): string {
  const { notes, cached, model } = estimate;
  const have = cached > 0 ? ` (${count(cached)} ${cached === 1 ? 'has' : 'have'} one)` : '';
  if (notes === 0) {
    return cached === 0
      ? 'No note has text to summarize.'
      : `Every note already has a summary from ${model}: nothing to do.`;
  }
  const first = `${count(notes)} ${notes === 1 ? 'note has' : 'notes have'} no summary from ${model} yet${have}.`;
  const calls = `${count(notes)} model ${notes === 1 ? 'call' : 'calls'}`;
  const tokens = `about ${count(estimate.inputTokens)} tokens sent and up to ${count(estimate.outputTokens)} written`;
  const cost = !estimate.hosted
    ? `on ${estimate.server}, a server on this machine: no charge, but time on it`
    : estimate.cost
      ? `about ${dollars(estimate.cost.usd)} at ${priceName(estimate.cost.priceSource, model)} ($${estimate.cost.inputPerMillion} in, $${estimate.cost.outputPerMillion} out per million tokens)`
      : `no price is known here for ${model} on ${estimate.server}: tokens only, check the provider's prices`;
  return `${first} That is ${calls}: ${tokens}; ${cost}.`;
}

function priceName(source: PriceSource, model: string): string {
  if (source === 'user') return `the price you set for ${model}`;
  if (source === 'server') return `the price the server lists for ${model}`;
  return `${model}'s list price`;
}
