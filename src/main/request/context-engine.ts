/*
 * The context engine decides what goes into each model request; the agent loop asks it before every
 * step. The pieces:
 * - counting (token-encodings, token-counter, content-cache): local counts in the model family's
 *   encoding, cached by content, with the per-message overheads and tool schemas as sent;
 * - calibration: the provider's reported prompt tokens, per model, turn local counts into the
 *   provider's; the budget, the triggers and the meter all use the calibrated number;
 * - budget: usable = window − reserved output − margin, shares per part, a cap per item
 *   (head-tail cuts what is larger);
 * - assembly (assemble, context-items, history-plan, turn-steps, request-pack): fixed parts, items by
 *   priority, then history by strategy (discard, summarize, hybrid), laid out as LlmMessages with the
 *   request context that accounts for every token;
 * - compaction (compaction-plan, compaction-chunks, summary-prompt, summary-validation, compaction):
 *   budgeted, chunked, progressive summaries, checked before they replace anything in the prompt; the
 *   original messages stay stored;
 * - context-length-error: recognizes providers' refusals for the aggressive retry.
 */
import { assembleRequest, type AssembledRequest } from './assemble';
import { planBudget, type Budget } from './budget';
import {
  calibrated,
  observeUsage,
  type Calibration,
  type CalibrationStore,
  type UsageObservation,
} from './count/calibration';
import { runCompaction, type CompactionOutcome, type Summarizer } from './history/compaction';
import type { CompactionPlan } from './history/compaction-plan';
import { defaultContextOptions, type ContextOptions } from './context-options';
import type { ContextLengthError } from './context-length-error';
import type { AssembleInput, ModelProfile } from './context-types';
import { TokenCounter } from './count/token-counter';
import { tokenizerFor } from './count/token-encodings';
import { imageRuleFor } from '../images/image-rules';

export interface ContextEngineDependencies {
  calibrations: CalibrationStore;
  options?: Partial<ContextOptions>;
}

/** Counts, budgets, prunes and compacts model requests. One per app: its caches serve every session. */
export class ContextEngine {
  private readonly counters = new Map<string, TokenCounter>();
  private options: ContextOptions;

  constructor(private readonly dependencies: ContextEngineDependencies) {
    this.options = { ...defaultContextOptions, ...dependencies.options };
  }

  /** New shares, threshold or tail from the user's settings; counts stay cached. */
  configure(options: Partial<ContextOptions>): void {
    this.options = { ...defaultContextOptions, ...this.dependencies.options, ...options };
  }

  /** The request for one agent-loop step. Pure apart from the count caches; cheap to call every step. */
  assemble(input: AssembleInput): AssembledRequest {
    return assembleRequest(
      input,
      this.counter(input.model),
      this.calibration(input.model).ratio,
      this.options,
    );
  }

  /**
   * Carries out a plan from `assemble`: the summary to store with the ids it covers, or a notice to
   * show when it failed (assemble again with `discard` then). Rejects only when `signal` aborts.
   */
  compact(
    model: ModelProfile,
    plan: CompactionPlan,
    summarizer: Summarizer,
    signal: AbortSignal,
  ): Promise<CompactionOutcome> {
    return runCompaction(plan, summarizer, this.counter(model), this.options.cutNotice, signal);
  }

  /**
   * After a response: the prompt tokens the provider reported (Anthropic: input plus cache tokens)
   * against the request's raw estimate. The observation says when a report was not learned from,
   * such as a prompt the server silently shortened. `newAnswer`: no earlier request of the same answer
   * was learned from, so the calibration counts one answer more.
   */
  recordUsage(
    model: ModelProfile,
    rawEstimate: number,
    reportedPromptTokens: number | null,
    newAnswer: boolean,
  ): UsageObservation {
    const observation = observeUsage(this.calibration(model), rawEstimate, reportedPromptTokens);
    return this.learn(model, observation, newAnswer);
  }

  /** A context-length error that states the prompt's size is a sample too, and never a truncation. */
  recordOverflow(
    model: ModelProfile,
    rawEstimate: number,
    error: ContextLengthError,
    newAnswer: boolean,
  ): UsageObservation {
    const observation = observeUsage(this.calibration(model), rawEstimate, error.promptTokens, true);
    return this.learn(model, observation, newAnswer);
  }

  calibration(model: ModelProfile): Calibration {
    const stored = this.dependencies.calibrations.get(model.key);
    // Calibrations stored before answers were counted apart counted requests: the closest figure there is.
    if (stored) return { ...stored, answers: stored.answers ?? stored.samples };
    return { ratio: tokenizerFor(model.model, model.provider).factor, samples: 0, answers: 0 };
  }

  /**
   * The budget of a request in `window` tokens, with the user's shares and this model's calibration:
   * the room the planner, linked notes, pinned notes and attachments are sized by.
   */
  budget(model: ModelProfile, window: number): Budget {
    return planBudget(window, this.calibration(model).ratio, this.options);
  }

  /** A text's tokens for this model, local and calibrated: the composer's estimate of what is typed. */
  estimate(model: ModelProfile, text: string): { raw: number; calibrated: number } {
    const raw = this.counter(model).text(text);
    return { raw, calibrated: calibrated(raw, this.calibration(model).ratio) };
  }

  private learn(model: ModelProfile, observation: UsageObservation, newAnswer: boolean): UsageObservation {
    if (observation.verdict !== 'calibrated') return observation;
    const { calibration } = observation;
    const learned = newAnswer ? { ...calibration, answers: calibration.answers + 1 } : calibration;
    this.dependencies.calibrations.put(model.key, learned);
    return { ...observation, calibration: learned };
  }

  private counter(model: ModelProfile): TokenCounter {
    const { encoding, family, factor } = tokenizerFor(model.model, model.provider);
    // Images are counted by the provider's rule: one counter per encoding and rule.
    const rule = imageRuleFor(family);
    const key = `${encoding} ${rule}`;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = new TokenCounter(encoding, undefined, { rule, factor });
      this.counters.set(key, counter);
    }
    return counter;
  }
}
