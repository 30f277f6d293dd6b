import { useId, useState, type ReactNode } from 'react';
import type { SessionCompaction } from '../../../../shared/context-domain';
import type { CitedDocument } from './AnswerMarkdown';
import { AnswerMarkdown } from './LazyAnswerMarkdown';
import { compactionLabel } from './chat-rows';
import './chat.css';

/**
 * Stands where the summarized messages were: collapsed, a line saying how many; expanded, the summary
 * the model is given instead of them, then the messages themselves (nothing is deleted).
 */
export function CompactionMarker({
  compaction,
  count,
  documents,
  children,
}: {
  compaction: SessionCompaction;
  count: number;
  documents: Map<number, CitedDocument>;
  children: ReactNode;
}) {
  const [expanded, setExpanded] = useState(false);
  const contentId = useId();
  return (
    <div className="compaction">
      <button
        type="button"
        className="compaction-marker"
        data-testid="compaction-marker"
        aria-expanded={expanded}
        aria-controls={expanded ? contentId : undefined}
        onClick={() => setExpanded(!expanded)}
      >
        <svg className="compaction-caret" viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
          <path d="M3 1.5 L7 5 L3 8.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
        {compactionLabel(count)}
      </button>
      {expanded && (
        <div className="compaction-content" id={contentId}>
          <section className="compaction-summary" data-testid="compaction-summary" aria-label="Summary">
            <p className="muted small">
              The model is given this summary instead of them ({compaction.tokens.toLocaleString('en-US')}{' '}
              tokens instead of {compaction.replacedTokens.toLocaleString('en-US')}
              {compaction.focus ? `; focus: ${compaction.focus}` : ''}).
            </p>
            <AnswerMarkdown text={compaction.text} streaming={false} documents={documents} />
          </section>
          {children}
        </div>
      )}
    </div>
  );
}
