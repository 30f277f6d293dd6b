import type { DiffSegment } from '../chat-domain';

/**
 * An edit's word diff as plain text, marked as wdiff marks words: `[-removed-]`, `{+added+}`, and a
 * line `… N unchanged lines …` where unchanged lines are elided. For terminals and logs.
 */
export function diffText(diff: readonly DiffSegment[]): string {
  return diff
    .map((segment) =>
      segment.kind === 'elided'
        ? `… ${segment.lines} unchanged ${segment.lines === 1 ? 'line' : 'lines'} …\n`
        : segment.kind === 'removed'
          ? `[-${segment.text}-]`
          : segment.kind === 'added'
            ? `{+${segment.text}+}`
            : segment.text,
    )
    .join('');
}
