import { z } from 'zod';
import type { TokenPrice } from '../../shared/cost/cost-domain';
import type { SettingsTable } from '../storage/settings-table';

/** The price of one model on one server as the user set it in Settings. */
export interface UserPrice {
  /** The server's base URL without a trailing slash: the same model elsewhere has its own price. */
  server: string;
  model: string;
  price: TokenPrice;
}

const amount = z.number().finite().min(0);
const stored = z.array(
  z.object({
    server: z.string(),
    model: z.string(),
    price: z.object({ input: amount, cachedInput: amount.nullable(), output: amount }),
  }),
);

const key = 'model-prices';

/** The prices the user gave (the `settings` table, key `model-prices`); they win over any other. */
export class UserPrices {
  constructor(private readonly table: SettingsTable) {}

  /** Every price the user set; a stored list that no longer reads is taken as none. */
  all(): UserPrice[] {
    const text = this.table.get(key);
    if (text === null) return [];
    try {
      return stored.parse(JSON.parse(text));
    } catch {
      return [];
    }
  }

  find(server: string, model: string): TokenPrice | null {
    return this.all().find((entry) => entry.server === server && entry.model === model)?.price ?? null;
  }

  set(entry: UserPrice): void {
    const others = this.all().filter(
      (known) => !(known.server === entry.server && known.model === entry.model),
    );
    this.table.put(key, JSON.stringify([...others, entry]));
  }

  remove(server: string, model: string): void {
    const kept = this.all().filter((known) => !(known.server === server && known.model === model));
    this.table.put(key, JSON.stringify(kept));
  }
}
