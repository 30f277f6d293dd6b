/** A model's price in US dollars per million tokens. */
export interface TokenPrice {
  input: number;
  /** Prompt tokens read from the server's cache; null: priced as input. */
  cachedInput: number | null;
  output: number;
  /** Prompt tokens written to the cache (Anthropic bills them above input); null: priced as input. */
  cacheWrite?: number | null;
}

/** Where a price came from: the user's own (Settings), the server's model list, Kasten's list prices. */
export type PriceSource = 'user' | 'server' | 'list';

/** What Kasten knows of what a model's calls cost. */
export type PriceQuote =
  | {
      kind: 'priced';
      price: TokenPrice;
      source: PriceSource;
      /** A page that lists it. */ reference: string | null;
    }
  /** A server on this machine or this network: it charges nothing per call. */
  | { kind: 'local' }
  /** A hosted server whose price for the model Kasten does not know. */
  | { kind: 'unknown' };

/** What one answer (every model call of it) cost, as stored with it: the price used is kept. */
export interface AnswerCost {
  quote: PriceQuote;
  /** US dollars at the quote's price; null unless priced. */
  usd: number | null;
  /** Calls whose usage the server did not report: `usd` leaves them out. */
  unreported: number;
}

/** The tokens and cost of several answers (a chat). */
export interface UsageTotal {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Dollars over the priced answers; null when none was priced. */
  usd: number | null;
  /** Answers from a hosted server at no known price: `usd` leaves them out. */
  unpriced: number;
  /** Answers with a cost (priced or not): 0 for a chat held with a local server only. */
  hosted: number;
}

/** One model's row in Settings → Cost: the price in force and where it came from. */
export interface PriceRow {
  model: string;
  quote: PriceQuote;
  /** The user set this price; resetting it brings back the server's or the list price. */
  edited: boolean;
}

/** The price table of the configured server (`prices:list`). */
export interface PriceTable {
  server: string;
  /** A server on this machine or network: its models cost nothing unless the user prices them. */
  local: boolean;
  /** The chat model first, then every model with a price on this server. */
  rows: PriceRow[];
}
