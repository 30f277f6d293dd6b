import { useState } from 'react';
import type { ProposedChange, ToolCallPart, WriteApproval } from '../../../../shared/chat-domain';
import { useChatStore } from './chat-store';

const outcomes: Record<Exclude<WriteApproval['state'], 'pending'>, string> = {
  approved: 'Approved: the change was written.',
  rejected: 'Rejected: nothing was written.',
  failed: 'Approved, but not written:',
  interrupted: 'Interrupted before a decision: nothing was written.',
};

/**
 * A change a write tool proposes, exactly as it would be written: a new note's path and whole
 * content, or the lines an append adds with the unchanged lines around them. While the answer waits,
 * Approve writes it and Reject does not; afterwards the card says what happened.
 */
export function WriteApprovalCard({
  call,
  approval,
  waiting,
}: {
  call: ToolCallPart;
  approval: WriteApproval;
  /** The answer is still running, so a pending change can be decided. */
  waiting: boolean;
}) {
  const decide = useChatStore((state) => state.decide);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { change, state } = approval;
  const pending = state === 'pending' && waiting;
  const answer = async (approved: boolean) => {
    setBusy(true);
    setError(await decide(call.id, approved));
    setBusy(false);
  };
  return (
    <section
      className={`write-card write-${state}`}
      data-testid="write-approval"
      data-state={state}
      aria-label={change.kind === 'create' ? 'Proposed new note' : 'Proposed addition to a note'}
    >
      <header className="write-header">
        <strong>{change.kind === 'create' ? 'Create note' : 'Append to'}</strong>{' '}
        <code data-testid="write-path">{change.path}</code>{' '}
        {change.kind === 'append' && <span className="muted">{placeOf(change)}</span>}
        {change.kind === 'append' && change.realPath && (
          <p className="small" data-testid="write-real-path">
            A link to <code>{change.realPath}</code>: that note is the one written.
          </p>
        )}
      </header>
      {change.kind === 'create' ? (
        <pre className="write-content" data-testid="write-content">
          {change.content}
        </pre>
      ) : (
        <AppendDiff change={change} />
      )}
      {pending ? (
        <div className="message-actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void answer(true)}>
            Approve
          </button>
          <button type="button" disabled={busy} onClick={() => void answer(false)}>
            Reject
          </button>
        </div>
      ) : (
        <p className="write-outcome small" data-testid="write-outcome">
          {state === 'pending' ? outcomes.interrupted : outcomes[state]}
          {state === 'failed' &&
            ` ${call.output?.replace(/^The user approved, but nothing was written: /, '')}`}
        </p>
      )}
      {error && (
        <p className="message-error small" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function placeOf(change: Extract<ProposedChange, { kind: 'append' }>): string {
  return change.heading === null ? 'at the end of the note' : `at the end of the section “${change.heading}”`;
}

/** The added lines marked `+`, between the unchanged lines around them, with their line numbers. */
function AppendDiff({ change }: { change: Extract<ProposedChange, { kind: 'append' }> }) {
  const first = change.line - change.before.length;
  const rows = [
    ...change.before.map((text) => ({ text, kind: 'context' as const })),
    ...change.added.map((text) => ({ text, kind: 'added' as const })),
    ...change.after.map((text) => ({ text, kind: 'context' as const })),
  ];
  return (
    <div className="write-diff" data-testid="write-diff" role="group" aria-label="Lines added">
      {rows.map((row, index) => (
        <div
          key={index}
          className={`diff-line diff-${row.kind}`}
          data-testid={row.kind === 'added' ? 'added-line' : 'context-line'}
        >
          <span className="diff-number" aria-hidden="true">
            {first + index}
          </span>
          <span className="diff-sign" aria-hidden="true">
            {row.kind === 'added' ? '+' : ' '}
          </span>
          <span className="diff-text">{row.text}</span>
        </div>
      ))}
    </div>
  );
}
