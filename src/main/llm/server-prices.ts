import type { ModelSettings } from '../../shared/chat-domain';
import type { TokenPrice } from '../../shared/cost/cost-domain';
import { perMillionFromPerToken } from '../../shared/cost/cost-math';
import { isRecord, requestJson, trimmedBaseUrl, type FetchFunction } from './model-list';

/** A server's listed prices are read again after this long; a failed read is tried again sooner. */
const keepMs = 60 * 60_000;
const retryMs = 5 * 60_000;

/**
 * The prices an OpenAI-compatible server lists with its models: OpenRouter's `/models` gives each
 * model's `pricing.prompt`, `pricing.completion`, `pricing.input_cache_read` and `input_cache_write` in
 * US dollars per token, as strings. Read once an hour per server; a server that lists none has none.
 */
export class ServerPrices {
  private readonly cache = new Map<string, { at: number; prices: Promise<Map<string, TokenPrice>> }>();

  constructor(
    private readonly fetchImpl: FetchFunction = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  /** The price the server lists for the model of `settings`, or null (none listed, or not reachable). */
  async price(settings: ModelSettings, apiKey: string | null): Promise<TokenPrice | null> {
    if (settings.provider !== 'openai-compatible') return null;
    const server = trimmedBaseUrl(settings);
    const known = this.cache.get(server);
    let prices = known && this.now() - known.at < keepMs ? known.prices : null;
    if (!prices) {
      prices = this.read(settings, apiKey);
      this.cache.set(server, { at: this.now(), prices });
    }
    return (await prices).get(settings.model) ?? null;
  }

  private async read(settings: ModelSettings, apiKey: string | null): Promise<Map<string, TokenPrice>> {
    const server = trimmedBaseUrl(settings);
    try {
      const body = await requestJson(settings, apiKey, { url: `${server}/models` }, this.fetchImpl);
      return listedPrices(body);
    } catch {
      // Tried again after `retryMs`, not at once: a server down for a while is not asked every answer.
      this.cache.set(server, { at: this.now() - keepMs + retryMs, prices: Promise.resolve(new Map()) });
      return new Map();
    }
  }
}

/** Each listed model's price, for the models whose input and output prices read as numbers. */
export function listedPrices(body: unknown): Map<string, TokenPrice> {
  const prices = new Map<string, TokenPrice>();
  const data = isRecord(body) ? body.data : undefined;
  if (!Array.isArray(data)) return prices;
  for (const entry of data) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || !isRecord(entry.pricing)) continue;
    const { pricing } = entry;
    const input = perMillionFromPerToken(pricing.prompt);
    const output = perMillionFromPerToken(pricing.completion);
    if (input === null || output === null) continue;
    prices.set(entry.id, {
      input,
      cachedInput: perMillionFromPerToken(pricing.input_cache_read),
      output,
      cacheWrite: perMillionFromPerToken(pricing.input_cache_write),
    });
  }
  return prices;
}
