import { chunkCompaction, type CompactionChunk } from './compaction-chunks';
import type { CompactionPlan } from './compaction-plan';
import type { StoredSummary } from '../context-types';
import type { CutNotice } from '../fit/head-tail';
import { buildSummaryPrompt } from './summary-prompt';
import { checkSummary, cleanSummary } from './summary-validation';
import type { TokenCounter } from '../count/token-counter';

/** The model call that writes a summary; kept behind an interface so tests and the CLI can supply one. */
export interface Summarizer {
  summarize(prompt: string, signal: AbortSignal): Promise<string>;
}

export type CompactionOutcome =
  /** `notice` is set when only the first chunks could be summarized. */
  | { ok: true; summary: StoredSummary; tokens: number; notice: string | null }
  /** The caller assembles with `discard` and shows the notice. */
  | { ok: false; reason: string; notice: string };

/**
 * Summarizes the plan's chunks in order, each merged into the summary so far, and checks every result
 * before it replaces anything. A failure keeps what was summarized before it; a failure of the first
 * chunk leaves the previous summary as it was. Never throws, except when `signal` is aborted.
 */
export async function runCompaction(
  plan: CompactionPlan,
  summarizer: Summarizer,
  counter: TokenCounter,
  cutNotice: CutNotice,
  signal: AbortSignal,
): Promise<CompactionOutcome> {
  const chunks = chunkCompaction(plan, counter, cutNotice);
  let running = plan.previousSummary;
  let runningTokens = running === null ? 0 : counter.text(running);
  let done = 0;
  let failure: string | null = null;
  for (const chunk of chunks) {
    const prompt = buildSummaryPrompt({
      previous: running,
      transcript: chunk.transcript,
      maxTokens: plan.maxSummaryTokens,
      focus: plan.focus,
    });
    let raw: string;
    try {
      raw = await summarizer.summarize(prompt, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      failure = `the model call failed: ${error instanceof Error ? error.message : String(error)}`;
      break;
    }
    signal.throwIfAborted();
    const check = checkSummary(cleanSummary(raw), {
      source: `${running ?? ''}\n\n${chunk.transcript}`,
      replacedTokens: runningTokens + chunk.tokens,
      maxTokens: plan.maxSummaryTokens,
      counter,
    });
    if (!check.ok) {
      failure = check.reason;
      break;
    }
    running = check.text;
    runningTokens = check.tokens;
    done++;
  }
  if (done === 0 || running === null) {
    const reason = failure ?? 'there was nothing to summarize';
    return {
      ok: false,
      reason,
      notice:
        `Summarizing the earlier conversation failed (${reason}). This request leaves the oldest messages ` +
        'out instead; they are still in the chat.',
    };
  }
  return {
    ok: true,
    summary: { text: running, coveredIds: coveredAfter(plan, chunks, done) },
    tokens: runningTokens,
    notice:
      failure === null
        ? null
        : `Only part of the earlier conversation could be summarized (${failure}); ` +
          'requests leave the rest of the oldest messages out while they do not fit.',
  };
}

/** The previous summary's ids and the done chunks', less any message that continues into a chunk not done. */
function coveredAfter(plan: CompactionPlan, chunks: readonly CompactionChunk[], done: number): number[] {
  if (done === chunks.length) return plan.coveredIds;
  const pending = new Set(chunks.slice(done).flatMap((chunk) => chunk.messageIds));
  const covered = new Set(plan.previousCoveredIds);
  for (const chunk of chunks.slice(0, done)) {
    for (const id of chunk.messageIds) if (!pending.has(id)) covered.add(id);
  }
  return [...covered];
}
