import type { CalibrationInfo } from '../../../../shared/context-domain';

/** A token count as the status bar shows it: 950, 2.9k, 12k, 1.2M. */
export function formatTokens(tokens: number): string {
  const count = Math.max(0, Math.round(tokens));
  if (count < 1000) return String(count);
  if (count < 1_000_000) return scaled(count / 1000, 'k');
  return scaled(count / 1_000_000, 'M');
}

/**
 * A context window: windows are often powers of two (4096 is sold as "4k", 131072 as "128k"), so a
 * multiple of 1024 is counted in 1024s; round thousands (128000, 200000) in thousands.
 */
export function formatWindow(tokens: number): string {
  const binary = tokens >= 1024 && tokens % 1024 === 0 && tokens % 1000 !== 0;
  if (binary && tokens < 1024 * 1024) return scaled(tokens / 1024, 'k');
  return formatTokens(tokens);
}

/** The meter's text, e.g. "2.9k / 4k". */
export function meterText(used: number, window: number): string {
  return `${formatTokens(used)} / ${formatWindow(window)}`;
}

/** One decimal below 10 (2.9k), whole numbers above (12k); never "4.0k". */
function scaled(value: number, unit: string): string {
  const rounded = value < 9.95 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${rounded}${unit}`;
}

/** The exact count, for tables and tooltips: "4,096". */
export function exactTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}

/** How far the local count has been corrected by what the provider reported. */
export function calibrationText(calibration: CalibrationInfo): string {
  if (calibration.samples <= 0) return 'uncalibrated';
  const answers = calibration.answers === 1 ? 'answer' : 'answers';
  return `calibrated ×${calibration.ratio.toFixed(2)} from ${calibration.answers} ${answers}`;
}

/** The prompt size the provider reported, or that it has not. */
export function reportedText(reported: number | null): string {
  return reported === null ? 'not reported yet' : `reported by the server: ${exactTokens(reported)}`;
}
