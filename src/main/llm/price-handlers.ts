import type { Handlers } from '../../shared/contract';
import type { PriceBook } from './price-book';

/** The handlers of the price table's channels: each is one call of the price book. */
export function priceHandlers(prices: PriceBook): Pick<Handlers, `prices:${string}` & keyof Handlers> {
  return {
    'prices:list': async () => prices.table(),
    'prices:set': async ({ model, ...price }) => prices.set(model, price),
    'prices:reset': async ({ model }) => prices.reset(model),
  };
}
