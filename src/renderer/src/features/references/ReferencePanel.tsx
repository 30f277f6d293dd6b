import { useMemo, useState } from 'react';
import { useChatStore } from '../chat/chat-store';
import { PinButton } from '../items/PinButton';
import { useWriteSettingsStore } from '../chat/write-settings-store';
import { isWebAddress } from '../web/open-web-page';
import { WebReferenceEntry } from '../web/WebReferenceEntry';
import { openReference } from './open-reference';
import { answerReferences, sessionReferences, type ReferenceEntry } from './reference-entries';
import './references.css';

const kindLabels: Record<string, string> = {
  direct: 'direct',
  broken: 'broken',
  read: 'read',
  'search-hit': 'search hit',
  cited: 'cited',
  selection: 'selection',
  web: 'web page',
};

/** How the model received a note, for the tooltip of what it cost. */
const receivedAs: Partial<Record<string, string>> = {
  direct: 'linked in the question (whole, or its summary)',
  read: 'read (the whole note or a section)',
  'search-hit': 'found by a search (its snippet)',
  selection: 'a passage selected in the note and asked about',
};

function costTitle(entry: ReferenceEntry): string {
  const ways = entry.kinds.flatMap((kind) => receivedAs[kind] ?? []);
  return `Tokens the model received from this note: ${ways.join('; ')}`;
}

function Details({ entry, showTurns }: { entry: ReferenceEntry; showTurns: boolean }) {
  return (
    <>
      <span className="reference-kinds">
        {entry.kinds.map((kind) => (
          <span key={kind} className={`kind kind-${kind}`} data-testid={`kind-${kind}`}>
            {kindLabels[kind]}
          </span>
        ))}
        {entry.tokens !== null && (
          <span className="muted small" title={costTitle(entry)} data-testid="reference-tokens">
            {entry.tokens.toLocaleString()} tokens
          </span>
        )}
        {showTurns && <span className="muted small">turn {entry.turns.join(', ')}</span>}
      </span>
      {entry.summary && <span className="reference-summary small">{entry.summary}</span>}
    </>
  );
}

/**
 * A note the answer used, the whole card one target (mouse and keyboard) that opens it; a link that led
 * nowhere shows as typed, says so, and how to have the note made when the assistant may write.
 */
function Entry({ entry, showTurns }: { entry: ReferenceEntry; showTurns: boolean }) {
  const writes = useWriteSettingsStore((state) => state.settings?.enabled === true);
  const sessionId = useChatStore((state) => state.session?.id ?? null);
  if (isWebAddress(entry.path) && sessionId) {
    const details = <Details entry={entry} showTurns={showTurns} />;
    return <WebReferenceEntry entry={entry} sessionId={sessionId} details={details} />;
  }
  const link = `[[${entry.title}${entry.subpath ? `#${entry.subpath}` : ''}]]`;
  if (entry.kinds.includes('broken')) {
    return (
      <li className="reference reference-broken" data-testid="reference">
        <span className="reference-title">{link}</span>
        <span className="reference-path muted small">no such note</span>
        <Details entry={entry} showTurns={showTurns} />
        <span className="reference-hint muted small">
          {writes
            ? `Ask the assistant to create “${entry.title}”: writes are allowed, and you approve the note.`
            : 'Turn on Allow writes to have the assistant create it, with your approval.'}
        </span>
      </li>
    );
  }
  // The pin is the card's second target, beside the one that opens the note (a button holds no button).
  return (
    <li className="reference reference-pinnable" data-testid="reference" title={entry.summary || undefined}>
      <button
        type="button"
        className="reference-open"
        onClick={() => void openReference(entry.path, entry.subpath, entry.passage ?? null)}
      >
        <span className="reference-title">{entry.title}</span>
        <span className="reference-link muted small">{link}</span>
        {entry.viaAlias && (
          <span className="reference-alias muted small" data-testid="reference-alias">
            named by its alias “{entry.viaAlias}”
          </span>
        )}
        <span className="reference-path muted small">{entry.path}</span>
        <Details entry={entry} showTurns={showTurns} />
      </button>
      <PinButton path={entry.path} title={entry.title} className="reference-pin" />
    </li>
  );
}

/** The notes the selected answer used, or the whole session's, each opening in the viewer or pinned. */
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
    <>
      <header className="pane-subheader">
        <span className="muted small">Notes used by</span>
        <div className="segmented" role="tablist" aria-label="Notes used by">
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
          <p>Pin one to give the model all of it in every request of this chat.</p>
        </div>
      ) : (
        <ul className="references" data-testid="references">
          {entries.map((entry) => (
            <Entry key={entry.path} entry={entry} showTurns={scope === 'session'} />
          ))}
        </ul>
      )}
    </>
  );
}
