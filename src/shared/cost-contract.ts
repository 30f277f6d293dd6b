import { z } from 'zod';
import { request } from './contract-definitions';
import type { PriceTable } from './cost/cost-domain';

/** Dollars per million tokens: the most any model has cost is far below the cap. */
const perMillion = z
  .number({ error: 'A price must be a number of dollars per million tokens.' })
  .finite()
  .min(0, 'A price cannot be negative.')
  .max(10_000, 'A price above $10,000 per million tokens is surely a typo.');

/** Channels of what answers cost: the configured server's price table, which the user can edit. */
export const costRequests = {
  /** The configured server's models with the price in force for each and where it came from. */
  'prices:list': request<PriceTable>()(() => z.undefined()),
  /** Sets the user's price of a model on the configured server; answers from now on use it. */
  'prices:set': request<PriceTable>()(() =>
    z
      .object({
        model: z.string().trim().min(1, 'Name the model.').max(300),
        input: perMillion,
        /** Null: cache hits are priced as input. */
        cachedInput: perMillion.nullable(),
        output: perMillion,
      })
      .strict(),
  ),
  /** Drops the user's price of a model: the server's or the list price, if any, applies again. */
  'prices:reset': request<PriceTable>()(() =>
    z.object({ model: z.string().trim().min(1).max(300) }).strict(),
  ),
} as const;
