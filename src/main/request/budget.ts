import type { BudgetShares, ContextOptions } from './context-options';

/** The most output tokens a request keeps free for the answer. */
const mostReservedOutput = 4_096;

/**
 * The token budget of one request, in the provider's (calibrated) tokens and in local ones. The only
 * answer to "how much room?": the assembly, the planner's output limit, the room for linked notes,
 * pinned notes and attachments all come from `planBudget`.
 */
export interface Budget {
  window: number;
  /** Tokens kept free for the answer: the request's max output tokens. */
  reservedOutput: number;
  margin: number;
  /** window − reserved output − margin (scaled down in the aggressive retry). */
  usable: number;
  /** The most one item (a linked note, an attached file) may take. */
  itemCap: number;
  /** What pinned notes may take whole together; past it their passages are chosen for the question. */
  pinned: number;
  shares: BudgetShares;
  /** Provider tokens per local token. */
  ratio: number;
  /** The same limits in local tokens, which is what the assembly compares counts with. */
  raw: {
    usable: number;
    /** The most one item may take. */
    itemCap: number;
    /** Pinned notes together. */
    pinned: number;
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

/** Tokens kept free for the answer: a quarter of a small window, at most 4,096. */
function reservedOutputOf(window: number): number {
  return Math.min(mostReservedOutput, Math.floor(window / 4));
}

/** The budget of a request to a model whose server runs `window` tokens, `ratio` provider tokens per local one. */
export function planBudget(
  window: number,
  ratio: number,
  options: ContextOptions,
  aggressive = false,
): Budget {
  const reservedOutput = reservedOutputOf(window);
  const margin = Math.ceil(window * options.margin);
  const full = Math.max(0, window - reservedOutput - margin);
  const usable = aggressive ? Math.floor(full * options.aggressiveScale) : full;
  const local = (share: number) => Math.floor((usable * share) / ratio);
  return {
    window,
    reservedOutput,
    margin,
    usable,
    itemCap: Math.floor(usable * options.itemCap),
    pinned: Math.floor(usable * options.pinnedShare),
    shares: options.shares,
    ratio,
    raw: {
      usable: local(1),
      itemCap: local(options.itemCap),
      pinned: local(options.pinnedShare),
      context: local(options.shares.context),
      threshold: local(options.threshold),
      tail: local(options.tailShare),
      summary: Math.max(256, local(options.summaryShare)),
    },
  };
}
