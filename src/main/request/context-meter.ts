import type { ChatMessage, ContextWindow } from '../../shared/chat-domain';
import {
  contextLevel,
  type CalibrationInfo,
  type ContextStatus,
  type PartTokens,
  type RequestContext,
} from '../../shared/context-domain';
import type { ModelProfile } from './context-types';

/**
 * The context meter's reading of the next request: its estimate and parts, the share of what is being
 * typed (the words, the notes they link, the files read for them), and what the server last reported.
 */
export function meterReading(
  request: RequestContext,
  facts: {
    profile: ModelProfile;
    window: ContextWindow;
    /** Whether anything is being typed or attached. */
    typed: boolean;
    messages: readonly ChatMessage[];
    calibration: CalibrationInfo;
    compactions: number;
  },
): ContextStatus {
  const draftTokens = facts.typed
    ? request.items
        .filter(
          (item) =>
            item.kind === 'current' ||
            item.kind === 'attachment' ||
            (item.kind === 'reference' && item.include === 'direct'),
        )
        .reduce((sum, item) => sum + item.tokens, 0)
    : 0;
  const reported = facts.messages
    .flatMap((message) => message.requests)
    .findLast((entry) => entry.reported !== null);
  return {
    model: facts.profile.model,
    window: facts.window.tokens,
    windowSource: facts.window.source,
    windowNamedAt: facts.window.namedAt ?? null,
    usable: request.usable,
    estimated: request.estimated,
    draftTokens,
    parts: facts.typed ? request.parts : framingAsOverhead(request.parts),
    pinned: request.items.flatMap((item) =>
      item.kind === 'pinned' && item.path !== undefined ? [{ path: item.path, tokens: item.tokens }] : [],
    ),
    reported: reported?.reported ?? null,
    calibration: facts.calibration,
    strategy: request.strategy,
    compactions: facts.compactions,
    level: contextLevel(request.estimated, request.usable),
  };
}

/**
 * With nothing typed, the current message is only the framing every message has: it is counted with the
 * system prompt, the fixed overhead of a request, so the meter shows no message where there is none.
 */
function framingAsOverhead(parts: readonly PartTokens[]): PartTokens[] {
  const framing = parts.find((entry) => entry.part === 'current')?.tokens ?? 0;
  if (!parts.some((entry) => entry.part === 'system')) return [...parts];
  return parts.map((entry) =>
    entry.part === 'current'
      ? { part: 'current', tokens: 0 }
      : entry.part === 'system'
        ? { part: 'system', tokens: entry.tokens + framing }
        : entry,
  );
}
