import { useMemo, useState } from 'react';
import { useChatStore } from '../chat/chat-store';
import { openReference } from './open-reference';
import { answerReferences, sessionReferences, type ReferenceEntry } from './reference-entries';

const kindLabels: Record<string, string> = {
  direct: 'direct',
  broken: 'broken',
  read: 'read',
  'search-hit': 'search hit',
  cited: 'cited',
};

function Entry({ entry, showTurns }: { entry: ReferenceEntry; showTurns: boolean }) {
  const broken = entry.kinds.includes('broken');
  return (
    <li
      className={`reference${broken ? ' reference-broken' : ''}`}
      data-testid="reference"
      title={entry.summary || undefined}
    >
      <button
        type="button"
        className="reference-open"
        disabled={broken}
        onClick={() => void openReference(entry.path, entry.subpath)}
      >
        <span className="reference-title">{entry.title}</span>
        <span className="reference-link muted small">
          [[{entry.title}
          {entry.subpath ? `#${entry.subpath}` : ''}]]
        </span>
      </button>
      <span className="reference-path muted small">{broken ? 'no such note' : entry.path}</span>
      <span className="reference-kinds">
        {entry.kinds.map((kind) => (
          <span key={kind} className={`kind kind-${kind}`} data-testid={`kind-${kind}`}>
            {kindLabels[kind]}
          </span>
        ))}
        {entry.tokens !== null && <span className="muted small">{entry.tokens.toLocaleString()} tokens</span>}
        {showTurns && <span className="muted small">turn {entry.turns.join(', ')}</span>}
      </span>
      {entry.summary && <p className="reference-summary small">{entry.summary}</p>}
    </li>
  );
}

/** The notes the selected answer used, or the whole session's, each opening in the viewer. */
export function ReferencePanel() {
  const session = useChatStore((state) => state.session);
  const selected = useChatStore((state) => state.selectedMessageId);
  const [scope, setScope] = useState<'answer' | 'session'>('answer');
  const entries = useMemo(
    () =>
      session ? (scope === 'answer' ? answerReferences(session, selected) : sessionReferences(session)) : [],
    [session, selected, scope],
  );

  return (
    <aside className="reference-panel" aria-label="References">
      <header className="pane-header">
        <h2>References</h2>
        <div className="segmented" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={scope === 'answer'}
            onClick={() => setScope('answer')}
          >
            This answer
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={scope === 'session'}
            onClick={() => setScope('session')}
          >
            Session
          </button>
        </div>
      </header>
      {entries.length === 0 ? (
        <div className="empty-state small">
          <p>
            The notes an answer used — the ones you mentioned, and the ones the assistant searched, read and
            cited — appear here.
          </p>
        </div>
      ) : (
        <ul className="references" data-testid="references">
          {entries.map((entry) => (
            <Entry key={entry.path} entry={entry} showTurns={scope === 'session'} />
          ))}
        </ul>
      )}
    </aside>
  );
}
