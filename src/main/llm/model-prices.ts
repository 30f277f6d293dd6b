import type { ModelSettings } from '../../shared/chat-domain';

/** A hosted model's list price in US dollars per million tokens (standard tier: no cache, no batch). */
export interface ModelPrice {
  input: number;
  output: number;
  /** Where the price was read. */
  source: string;
}

const anthropic = 'https://platform.claude.com/docs/en/about-claude/pricing';
const openai = 'https://platform.openai.com/docs/pricing';

/**
 * The known list prices, read from the providers' pricing pages: a model missing here has no price, and
 * an estimate for it counts tokens only. Never a guess: add a model with its price as the page lists it.
 * A price applies on the provider's own API only; another server selling the same model prices it itself.
 */
const prices: readonly { host: string; model: string; input: number; output: number; source: string }[] = [
  { host: 'api.anthropic.com', model: 'claude-opus-4-6', input: 5, output: 25, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-opus-4-5', input: 5, output: 25, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-opus-4-1', input: 15, output: 75, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-opus-4', input: 15, output: 75, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-sonnet-4-6', input: 3, output: 15, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-sonnet-4-5', input: 3, output: 15, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-sonnet-4', input: 3, output: 15, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-3-7-sonnet', input: 3, output: 15, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-haiku-4-5', input: 1, output: 5, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-3-5-haiku', input: 0.8, output: 4, source: anthropic },
  { host: 'api.anthropic.com', model: 'claude-3-haiku', input: 0.25, output: 1.25, source: anthropic },
  { host: 'api.openai.com', model: 'gpt-4o', input: 2.5, output: 10, source: openai },
  { host: 'api.openai.com', model: 'gpt-4o-mini', input: 0.15, output: 0.6, source: openai },
  { host: 'api.openai.com', model: 'gpt-4.1', input: 2, output: 8, source: openai },
  { host: 'api.openai.com', model: 'gpt-4.1-mini', input: 0.4, output: 1.6, source: openai },
  { host: 'api.openai.com', model: 'gpt-4.1-nano', input: 0.1, output: 0.4, source: openai },
];

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
  return known ? { input: known.input, output: known.output, source: known.source } : null;
}

/** Whether a server runs on this machine; any other may charge for each call. */
export function isLocalServer(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}
