import { defaultCutNotice, type CutNotice } from './fit/head-tail';

/** Shares of the usable window; a part that needs less than its share leaves the rest to the others. */
export interface BudgetShares {
  system: number;
  /** Tool schemas, rules, pinned notes, references and attachments. */
  context: number;
  conversation: number;
}

export interface ContextOptions {
  shares: BudgetShares;
  /** Kept free besides the reserved output, as a share of the window: estimates are estimates. */
  margin: number;
  /** The most one item (a note, a tool result) may take, as a share of the usable window. */
  itemCap: number;
  /** Pinned notes together, as a share of the usable window: a note past it is given as passages. */
  pinnedShare: number;
  /** The share of the usable window past which `summarize` and `hybrid` compact. */
  threshold: number;
  /** Turns kept verbatim after a compaction… */
  tailTurns: number;
  /** …as long as they take at most this share of the usable window. */
  tailShare: number;
  /**
   * History between two places where masking and dropping may cut, as a share of the usable window: past
   * a threshold they cut this much at once, so that the next requests append to a prefix the server keeps.
   */
  cutShare: number;
  /** Size of a masked tool result's head … tail stub, in tokens. */
  maskedTokens: number;
  /** The longest summary, as a share of the usable window (bounded below by 256 tokens). */
  summaryShare: number;
  /** Compacting less than this share of the usable window is not worth a model call. */
  minimumCompaction: number;
  /** In the retry after a context-length error the usable window is scaled by this. */
  aggressiveScale: number;
  /** The text that replaces what a cut leaves out. */
  cutNotice: CutNotice;
}

export const defaultContextOptions: ContextOptions = {
  shares: { system: 0.1, context: 0.3, conversation: 0.6 },
  margin: 0.05,
  itemCap: 0.3,
  pinnedShare: 0.6,
  threshold: 0.8,
  tailTurns: 4,
  tailShare: 0.4,
  cutShare: 0.25,
  maskedTokens: 80,
  summaryShare: 0.15,
  minimumCompaction: 0.05,
  aggressiveScale: 0.75,
  cutNotice: defaultCutNotice,
};
