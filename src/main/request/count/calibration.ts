/** Provider tokens per local token for one model, learned from the usage its responses report. */
export interface Calibration {
  ratio: number;
  /** Requests learned from: how much the newest one weighs. */
  samples: number;
  /** Answers learned from (an answer makes one request per step): what the user is told. */
  answers: number;
}

/** A calibration as stored: those stored before answers were counted apart lack `answers`. */
export type StoredCalibration = Omit<Calibration, 'answers'> & { answers?: number };

/** Where calibrations persist between runs (the app database); injected so tests use a map. */
export interface CalibrationStore {
  get(modelKey: string): StoredCalibration | null;
  put(modelKey: string, calibration: Calibration): void;
}

export class MemoryCalibrationStore implements CalibrationStore {
  private readonly calibrations = new Map<string, StoredCalibration>();

  get(modelKey: string): StoredCalibration | null {
    return this.calibrations.get(modelKey) ?? null;
  }

  put(modelKey: string, calibration: Calibration): void {
    this.calibrations.set(modelKey, calibration);
  }
}

export type UsageVerdict = 'calibrated' | 'no-report' | 'too-small' | 'absurd' | 'truncated';

export interface UsageObservation {
  verdict: UsageVerdict;
  /** Reported over raw estimate for this response; null without a report. */
  sampleRatio: number | null;
  calibration: Calibration;
}

/** The newest sample weighs at least this much: the ratio follows a changed server within a few answers. */
const minimumWeight = 0.3;
/** A report outside these multiples of the local count is a bug somewhere, not a tokenizer difference. */
const absurdBelow = 0.25;
const absurdAbove = 4;
/**
 * A report this far below the calibrated estimate means the server cut the prompt rather than counted
 * it differently: Ollama drops older messages beyond its num_ctx and reports the shortened prompt.
 */
const truncatedBelow = 0.7;
/** Below this many local tokens a chat template's fixed overhead dominates the ratio. */
const smallestSample = 64;
const lowestRatio = 0.5;
const highestRatio = 3;

/**
 * Folds one response's reported prompt tokens into the calibration: an average over the first samples,
 * then an exponential moving average, clamped to a plausible range. Reports that cannot be a
 * tokenizer's difference are left out and said so. `trusted` is for counts a server gave for a prompt
 * it refused (a context-length error): they cannot be a truncation.
 */
export function observeUsage(
  current: Calibration,
  rawEstimate: number,
  reported: number | null,
  trusted = false,
): UsageObservation {
  if (reported === null || !Number.isFinite(reported)) {
    return { verdict: 'no-report', sampleRatio: null, calibration: current };
  }
  const sampleRatio = rawEstimate > 0 ? reported / rawEstimate : Number.POSITIVE_INFINITY;
  const skip = (verdict: UsageVerdict): UsageObservation => ({ verdict, sampleRatio, calibration: current });
  if (reported <= 0 || sampleRatio < absurdBelow || sampleRatio > absurdAbove) return skip('absurd');
  if (rawEstimate < smallestSample) return skip('too-small');
  if (!trusted && sampleRatio < current.ratio * truncatedBelow) return skip('truncated');
  const weight = Math.max(minimumWeight, 1 / (current.samples + 1));
  const ratio = current.ratio + weight * (sampleRatio - current.ratio);
  return {
    verdict: 'calibrated',
    sampleRatio,
    calibration: {
      ...current,
      ratio: Math.min(highestRatio, Math.max(lowestRatio, ratio)),
      samples: current.samples + 1,
    },
  };
}

/** Local tokens scaled to the provider's, rounded up: the budget errs on the side of fitting. */
export function calibrated(rawTokens: number, ratio: number): number {
  return Math.ceil(rawTokens * ratio);
}
