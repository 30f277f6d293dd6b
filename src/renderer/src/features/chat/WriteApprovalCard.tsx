import { useState } from 'react';
import type { ProposedChange, ToolCallPart, WriteApproval } from '../../../../shared/chat-domain';
import { useChatStore } from './chat-store';
import { EditDiff } from './EditDiff';
import './write-card.css';

const outcomes: Record<Exclude<WriteApproval['state'], 'pending'>, string> = {
  approved: 'Approved: the change was written.',
  rejected: 'Rejected: nothing was written.',
  failed: 'Approved, but not written:',
  interrupted: 'Interrupted before a decision: nothing was written.',
  undone: 'Undone: the note holds again what it held before the change.',
};

const titles: Record<ProposedChange['kind'], string> = {
  create: 'Create note',
  append: 'Append to',
  edit: 'Edit',
};

const labels: Record<ProposedChange['kind'], string> = {
  create: 'Proposed new note',
  append: 'Proposed addition to a note',
  edit: 'Proposed edit of a note',
};

/**
 * A change a write tool proposes, exactly as it would be written: a new note's path and whole
 * content, the lines an append adds with the unchanged lines around them, or an edit word by word in
 * its section. While the answer waits, Approve writes it and Reject does not; afterwards the card says
 * what happened, and a written change can be undone while the note is as Kasten left it.
 */
export function WriteApprovalCard({
  messageId,
  call,
  approval,
  waiting,
}: {
  messageId: number;
  call: ToolCallPart;
  approval: WriteApproval;
  /** The answer is still running, so a pending change can be decided (and none undone yet). */
  waiting: boolean;
}) {
  const decide = useChatStore((state) => state.decide);
  const undoWrite = useChatStore((state) => state.undoWrite);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { change, state } = approval;
  const pending = state === 'pending' && waiting;
  const act = async (action: () => Promise<string | null>) => {
    setBusy(true);
    setError(await action());
    setBusy(false);
  };
  return (
    <section
      className={`write-card write-${state}`}
      data-testid="write-approval"
      data-state={state}
      aria-label={labels[change.kind]}
    >
      <header className="write-header">
        <strong>{titles[change.kind]}</strong> <code data-testid="write-path">{change.path}</code>{' '}
        {change.kind !== 'create' && <span className="muted">{placeOf(change)}</span>}
        {change.kind !== 'create' && change.realPath && (
          <p className="small" data-testid="write-real-path">
            A link to <code>{change.realPath}</code>: that note is the one written.
          </p>
        )}
      </header>
      {change.kind === 'create' ? (
        <pre className="write-content" data-testid="write-content">
          {change.content}
        </pre>
      ) : change.kind === 'edit' ? (
        <EditDiff change={change} />
      ) : (
        <AppendDiff change={change} />
      )}
      {pending ? (
        <div className="message-actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void act(() => decide(call.id, true))}
          >
            Approve
          </button>
          <button type="button" disabled={busy} onClick={() => void act(() => decide(call.id, false))}>
            Reject
          </button>
        </div>
      ) : (
        <div className="write-outcome-row">
          <p className="write-outcome small" data-testid="write-outcome">
            {state === 'pending'
              ? outcomes.interrupted
              : state === 'approved' && approval.byChat
                ? 'Written without asking: this chat allows writes.'
                : outcomes[state]}
            {state === 'failed' &&
              ` ${call.output?.replace(/^The user approved, but nothing was written: /, '')}`}
          </p>
          {state === 'approved' && !waiting && (
            <button
              type="button"
              className="small"
              disabled={busy}
              onClick={() => void act(() => undoWrite(messageId, call.id))}
            >
              Undo
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="message-error small" role="alert" data-testid="write-error">
          {error}
        </p>
      )}
    </section>
  );
}

function placeOf(change: Exclude<ProposedChange, { kind: 'create' }>): string {
  if (change.kind === 'edit') {
    if (change.target === 'section') return `: the text of the section “${change.section}”`;
    return change.section === null ? '' : `in the section “${change.section}”`;
  }
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
