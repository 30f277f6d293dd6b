import type { DiffSegment, ProposedChange } from '../../../../shared/chat-domain';

/** A removed or added line break, shown so that joining or splitting lines is seen. */
const lineBreak = '↵';

/**
 * An edit's section as it will read, word by word: removed words struck through, added ones marked,
 * the unchanged text around them, and long unchanged stretches as a count of lines.
 */
export function EditDiff({ change }: { change: Extract<ProposedChange, { kind: 'edit' }> }) {
  return (
    <div className="write-diff edit-diff" data-testid="write-diff" role="group" aria-label="Words changed">
      <p className="edit-diff-line small" aria-hidden="true">
        line {change.line}
      </p>
      {change.diff.map((segment, index) => (
        <Segment key={index} segment={segment} />
      ))}
    </div>
  );
}

function Segment({ segment }: { segment: DiffSegment }) {
  if (segment.kind === 'elided') {
    return (
      <span className="edit-elided" data-testid="elided-lines">
        ⋯ {segment.lines} unchanged {segment.lines === 1 ? 'line' : 'lines'} ⋯{'\n'}
      </span>
    );
  }
  if (segment.kind === 'same') return <span className="edit-same">{segment.text}</span>;
  const shown = segment.text.replaceAll('\n', `${lineBreak}\n`);
  return segment.kind === 'removed' ? (
    <del className="edit-removed" data-testid="removed-text">
      {shown}
    </del>
  ) : (
    <ins className="edit-added" data-testid="added-text">
      {shown}
    </ins>
  );
}
