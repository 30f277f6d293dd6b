import type { ModelSettings } from '../../shared/chat-domain';
import type { PriceQuote, PriceRow, PriceTable, TokenPrice } from '../../shared/cost/cost-domain';
import type { ApiKeys } from './api-keys';
import { isLocalServer, listedModels, quotePrice } from './model-prices';
import { trimmedBaseUrl } from './model-list';
import type { ModelSettingsStore } from './model-settings';
import type { ServerPrices } from './server-prices';
import type { UserPrices } from './user-prices';

/**
 * What the configured server's models cost: the user's prices (Settings), the server's own list
 * (OpenRouter) and Kasten's list prices, joined by `quotePrice`. Answers take their quote from here.
 */
export class PriceBook {
  constructor(
    private readonly settings: Pick<ModelSettingsStore, 'get'>,
    private readonly keys: Pick<ApiKeys, 'key'>,
    private readonly user: UserPrices,
    private readonly server: ServerPrices,
  ) {}

  /** The quote of `model` (the chat model when omitted) on the configured server. */
  async quote(model?: string): Promise<PriceQuote> {
    const settings = this.settings.get();
    return this.quoteOf(settings, model ?? settings.model);
  }

  /** The configured server's price table: the chat model, then every model priced there. */
  async table(): Promise<PriceTable> {
    const settings = this.settings.get();
    const server = trimmedBaseUrl(settings);
    const models = new Set([settings.model.trim()].filter((model) => model !== ''));
    for (const entry of this.user.all()) if (entry.server === server) models.add(entry.model);
    for (const model of listedModels(settings)) models.add(model);
    const rows: PriceRow[] = [];
    for (const model of models) {
      rows.push({
        model,
        quote: await this.quoteOf(settings, model),
        edited: this.user.find(server, model) !== null,
      });
    }
    return { server, local: isLocalServer(settings.baseUrl), rows };
  }

  /** Sets the user's price of `model` on the configured server: answers from now on are priced with it. */
  async set(model: string, price: TokenPrice): Promise<PriceTable> {
    const { cachedInput, input, output } = price;
    this.user.set({
      server: trimmedBaseUrl(this.settings.get()),
      model,
      price: { input, cachedInput, output },
    });
    return this.table();
  }

  /** Drops the user's price of `model`: the server's or the list price applies again, if any. */
  async reset(model: string): Promise<PriceTable> {
    this.user.remove(trimmedBaseUrl(this.settings.get()), model);
    return this.table();
  }

  private async quoteOf(settings: ModelSettings, model: string): Promise<PriceQuote> {
    const user = this.user.find(trimmedBaseUrl(settings), model);
    const reported = user ? null : await this.server.price({ ...settings, model }, this.keys.key(settings));
    return quotePrice(settings, model, { user, reported });
  }
}
