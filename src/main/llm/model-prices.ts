import ipaddr from 'ipaddr.js';
import type { ModelSettings } from '../../shared/chat-domain';
import type { PriceQuote, PriceSource, TokenPrice } from '../../shared/cost/cost-domain';

/** A hosted model's list price in US dollars per million tokens (standard tier, no batch). */
export interface ModelPrice extends TokenPrice {
  /** Where the price was read. */
  source: string;
}

const anthropic = 'https://platform.claude.com/docs/en/about-claude/pricing';
const openai = 'https://platform.openai.com/docs/pricing';

/**
 * The known list prices, read from the providers' pricing pages: a model missing here has no price
 * unless the user gives one in Settings or the server lists its own. Never a guess: add a model with its
 * price as the page lists it. `cachedInput` is the price of a cache hit (Anthropic: a tenth of input;
 * Anthropic's cache writes are 1.25 × input, see `callCost`). A price applies on the provider's own API
 * only; another server selling the same model prices it itself.
 */
const prices: readonly ({ host: string; model: string } & ModelPrice)[] = [
  row('api.anthropic.com', 'claude-opus-4-6', 5, 0.5, 25, anthropic),
  row('api.anthropic.com', 'claude-opus-4-5', 5, 0.5, 25, anthropic),
  row('api.anthropic.com', 'claude-opus-4-1', 15, 1.5, 75, anthropic),
  row('api.anthropic.com', 'claude-opus-4', 15, 1.5, 75, anthropic),
  row('api.anthropic.com', 'claude-sonnet-4-6', 3, 0.3, 15, anthropic),
  row('api.anthropic.com', 'claude-sonnet-4-5', 3, 0.3, 15, anthropic),
  row('api.anthropic.com', 'claude-sonnet-4', 3, 0.3, 15, anthropic),
  row('api.anthropic.com', 'claude-3-7-sonnet', 3, 0.3, 15, anthropic),
  row('api.anthropic.com', 'claude-haiku-4-5', 1, 0.1, 5, anthropic),
  row('api.anthropic.com', 'claude-3-5-haiku', 0.8, 0.08, 4, anthropic),
  row('api.anthropic.com', 'claude-3-haiku', 0.25, 0.03, 1.25, anthropic),
  row('api.openai.com', 'gpt-4o', 2.5, 1.25, 10, openai),
  row('api.openai.com', 'gpt-4o-mini', 0.15, 0.075, 0.6, openai),
  row('api.openai.com', 'gpt-4.1', 2, 0.5, 8, openai),
  row('api.openai.com', 'gpt-4.1-mini', 0.4, 0.1, 1.6, openai),
  row('api.openai.com', 'gpt-4.1-nano', 0.1, 0.025, 0.4, openai),
];

function row(
  host: string,
  model: string,
  input: number,
  cachedInput: number,
  output: number,
  source: string,
) {
  return { host, model, input, cachedInput, output, source };
}

/** A dated snapshot (`-20241022`, `-2024-07-18`) or `-latest` of a listed model has its price. */
const snapshot = /^-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** The list price of `model` on the server of `settings`, or null when Kasten knows none. */
export function listPrice(settings: Pick<ModelSettings, 'baseUrl'>, model: string): ModelPrice | null {
  let host: string;
  try {
    host = new URL(settings.baseUrl).hostname;
  } catch {
    return null;
  }
  const name = model.trim().toLowerCase();
  const known = prices.find(
    (price) =>
      price.host === host &&
      (name === price.model ||
        (name.startsWith(price.model) && snapshot.test(name.slice(price.model.length)))),
  );
  if (!known) return null;
  const { input, cachedInput, output, source } = known;
  return { input, cachedInput, output, source };
}

/** Address ranges of this machine and the networks it is on: a server there charges nothing per call. */
const localRanges = new Set(['loopback', 'private', 'linkLocal', 'uniqueLocal', 'unspecified']);

/**
 * Whether a server runs on this machine or its network (loopback, private, link-local addresses;
 * `localhost`, `*.localhost`, `*.local`); any other may charge for each call.
 */
export function isLocalServer(baseUrl: string): boolean {
  if (!URL.canParse(baseUrl)) return false;
  const host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  return ipaddr.isValid(host) && localRanges.has(ipaddr.process(host).range());
}

/** Anthropic bills a write to its five-minute prompt cache (the one Kasten asks for) at 1.25 × input. */
const anthropicCacheWriteFactor = 1.25;

export interface PriceSources {
  /** The user's price for the model on this server (Settings). */
  user: TokenPrice | null;
  /** The price the server lists for the model (OpenRouter's `/models`). */
  reported: TokenPrice | null;
}

/**
 * What a call of `model` on the server of `settings` costs: the user's price, else the one the server
 * lists (a server that states a price charges it, wherever it runs), else nothing on a local server,
 * else the list price, else unknown. Anthropic's cache writes get its 1.25 × input unless a price says.
 */
export function quotePrice(
  settings: Pick<ModelSettings, 'baseUrl'> & Partial<Pick<ModelSettings, 'provider'>>,
  model: string,
  sources: PriceSources = { user: null, reported: null },
): PriceQuote {
  const priced = (price: TokenPrice, source: PriceSource, reference: string | null): PriceQuote => {
    const cacheWrite =
      price.cacheWrite ??
      (settings.provider === 'anthropic' ? price.input * anthropicCacheWriteFactor : null);
    const { input, cachedInput, output } = price;
    return { kind: 'priced', price: { input, cachedInput, output, cacheWrite }, source, reference };
  };
  if (sources.user) return priced(sources.user, 'user', null);
  if (sources.reported) return priced(sources.reported, 'server', null);
  if (isLocalServer(settings.baseUrl)) return { kind: 'local' };
  const list = listPrice(settings, model);
  return list ? priced(list, 'list', list.source) : { kind: 'unknown' };
}

/** The models the list prices name on the server of `settings`. */
export function listedModels(settings: Pick<ModelSettings, 'baseUrl'>): string[] {
  if (!URL.canParse(settings.baseUrl)) return [];
  const host = new URL(settings.baseUrl).hostname;
  return prices.filter((price) => price.host === host).map((price) => price.model);
}
