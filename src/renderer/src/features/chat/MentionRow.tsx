import { FileText, ScrollText, Wrench } from 'lucide-react';
import type { MentionCandidate } from './mention-suggestions';

const icons = { rule: ScrollText, tool: Wrench, note: FileText };
const kindNames = { rule: 'rule', tool: 'tool', note: 'note' };

/** One `@` suggestion: what kind of thing it is, its name, how it is included, and a line about it. */
export function MentionRow({ candidate }: { candidate: MentionCandidate }) {
  const Icon = icons[candidate.kind];
  const state = candidate.active
    ? candidate.kind === 'note'
      ? 'pinned'
      : candidate.include === 'always'
        ? 'always'
        : 'added'
    : candidate.include;
  return (
    <span className="mention-row">
      <Icon size={14} aria-hidden className="mention-icon" />
      <span className="visually-hidden">{kindNames[candidate.kind]}: </span>
      <span className="mention-label">{candidate.label}</span>
      {state && <span className={`include include-${state}`}>{state}</span>}
      <span className="mention-detail muted small">{candidate.detail}</span>
    </span>
  );
}
