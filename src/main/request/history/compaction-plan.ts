import type { Budget } from '../budget';
import type { ContextOptions } from '../context-options';
import type { ConversationMessage, StoredSummary } from '../context-types';
import type { Block } from './conversation-blocks';
import { summaryInstructions } from './summary-prompt';
import { messageOverhead, type TokenCounter } from '../count/token-counter';

/**
 * What to summarize and how; `runCompaction` carries it out. Nothing is deleted: it is about what the
 * prompt holds. The transcripts are made when the compaction runs, not on every request that finds
 * one due: a long conversation's transcript costs more than the rest of an assembly.
 */
export interface CompactionPlan {
  reason: 'threshold' | 'requested';
  previousSummary: string | null;
  previousCoveredIds: readonly number[];
  /** The messages to fold into the summary, oldest first, grouped as they must stay together. */
  messages: readonly ConversationMessage[];
  blocks: readonly { start: number; end: number }[];
  /** The ids the new summary covers once everything is summarized. */
  coveredIds: number[];
  maxSummaryTokens: number;
  /** Local tokens of conversation one summarization request may carry. */
  chunkTokens: number;
  focus?: string;
}

export interface CompactionInput {
  history: readonly ConversationMessage[];
  blocks: readonly Block[];
  /** Blocks before this one (older than the verbatim tail) are summarized. */
  tailStart: number;
  /** Local tokens of each block as sent, for the check that compacting is worth a call. */
  blockTokens: (block: number) => number;
  summary: StoredSummary | null;
  budget: Budget;
  reason: CompactionPlan['reason'];
  focus?: string;
  options: Pick<ContextOptions, 'minimumCompaction'>;
  counter: TokenCounter;
}

/** Room kept in every summarization request for its framing (tags, the closing line). */
const framing = 64;
/** Below this a chunk holds too little conversation to be worth a call. */
const smallestChunk = 512;

/**
 * The messages older than the verbatim tail, and how much of them one summarization request may
 * carry next to the instructions and the longest summary while leaving the window room for the new
 * summary: however long the conversation, no summarization request can overflow. Null when there is
 * nothing worth compacting.
 */
export function planCompaction(input: CompactionInput): CompactionPlan | null {
  const { budget, history } = input;
  if (input.tailStart <= 0) return null;
  const maxSummaryTokens = budget.raw.summary;
  const instructions = input.counter.text(summaryInstructions(maxSummaryTokens, input.focus));
  const promptRoom = Math.floor((budget.window - budget.margin) / budget.ratio) - maxSummaryTokens;
  const chunkTokens = promptRoom - instructions - maxSummaryTokens - 2 * messageOverhead - framing;
  if (chunkTokens < smallestChunk) return null;
  if (input.reason === 'threshold') {
    // Counted newest first, stopping once the minimum is reached: blocks near the tail are counted already.
    const minimum = budget.raw.usable * input.options.minimumCompaction;
    let tokens = 0;
    for (let b = input.tailStart - 1; b >= 0 && tokens < minimum; b--) tokens += input.blockTokens(b);
    if (tokens < minimum) return null;
  }
  const end = input.blocks[input.tailStart - 1]!.end;
  const messages = history.slice(0, end);
  const blocks = input.blocks.slice(0, input.tailStart).map(({ start, end }) => ({ start, end }));
  const covered = new Set(input.summary?.coveredIds ?? []);
  for (const { id } of messages) covered.add(id);
  return {
    reason: input.reason,
    previousSummary: input.summary?.text ?? null,
    previousCoveredIds: input.summary?.coveredIds ?? [],
    messages,
    blocks,
    coveredIds: [...covered],
    maxSummaryTokens,
    chunkTokens,
    focus: input.focus,
  };
}
