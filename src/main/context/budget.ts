import type { BudgetShares, ContextOptions } from './context-options';

/** The token budget of one request, in the provider's (calibrated) tokens and in local ones. */
export interface Budget {
  window: number;
  reservedOutput: number;
  margin: number;
  /** window − reserved output − margin (scaled down in the aggressive retry). */
  usable: number;
  shares: BudgetShares;
  /** Provider tokens per local token. */
  ratio: number;
  /** The same limits in local tokens, which is what the assembly compares counts with. */
  raw: {
    usable: number;
    /** The most one item may take. */
    itemCap: number;
    /** Tool schemas and context items together, beyond which optional items are left out. */
    context: number;
    /** Past this much, `summarize` and `hybrid` compact (and `hybrid` masks old tool results first). */
    threshold: number;
    /** The verbatim tail's bound. */
    tail: number;
    /** The longest acceptable summary. */
    summary: number;
  };
}

export function planBudget(
  window: number,
  reservedOutput: number,
  ratio: number,
  options: ContextOptions,
  aggressive: boolean,
): Budget {
  const margin = Math.ceil(window * options.margin);
  const full = Math.max(0, window - reservedOutput - margin);
  const usable = aggressive ? Math.floor(full * options.aggressiveScale) : full;
  const local = (share: number) => Math.floor((usable * share) / ratio);
  return {
    window,
    reservedOutput,
    margin,
    usable,
    shares: options.shares,
    ratio,
    raw: {
      usable: local(1),
      itemCap: local(options.itemCap),
      context: local(options.shares.context),
      threshold: local(options.threshold),
      tail: local(options.tailShare),
      summary: Math.max(256, local(options.summaryShare)),
    },
  };
}
