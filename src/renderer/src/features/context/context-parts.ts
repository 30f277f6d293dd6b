import { contextKinds, type ContextKind, type PartTokens } from '../../../../shared/context-domain';

/** The parts in prompt order, as the stacked bar and the table list them. */
export const partOrder = contextKinds;

export const partLabels: Record<ContextKind, string> = {
  system: 'System prompt',
  tools: 'Tool schemas',
  rule: 'Rules',
  pinned: 'Pinned notes',
  reference: 'References',
  summary: 'Summary',
  history: 'History',
  'agent-prompt': 'Agent prompt',
  attachment: 'Attachments',
  current: 'Current message',
  'tool-results': 'Tool results',
};

export interface PartSegment {
  part: ContextKind;
  label: string;
  tokens: number;
  /** Share of the window, 0–100. */
  percent: number;
}

/**
 * The stacked bar's segments: parts of the same kind added up, empty ones left out, in prompt order,
 * each as a share of the window (capped so the bar never overflows).
 */
export function partSegments(parts: readonly PartTokens[], window: number): PartSegment[] {
  const totals = new Map<ContextKind, number>();
  for (const { part, tokens } of parts) totals.set(part, (totals.get(part) ?? 0) + Math.max(0, tokens));
  const known = partOrder.filter((part) => (totals.get(part) ?? 0) > 0);
  const unknown = [...totals.keys()].filter((part) => !partOrder.includes(part) && totals.get(part)! > 0);
  let room = 100;
  return [...known, ...unknown].map((part) => {
    const tokens = totals.get(part)!;
    const percent = Math.min(room, window > 0 ? (tokens / window) * 100 : 0);
    room -= percent;
    return { part, label: partLabels[part] ?? part, tokens, percent };
  });
}
