import { Globe } from 'lucide-react';
import { useState } from 'react';
import type { ProposedChange } from '../../../../shared/chat-domain';
import { describeError, kasten } from '../../api';
import { openWebPage } from './open-web-page';
import './web.css';

type Saving =
  | { state: 'idle' }
  | { state: 'proposing' }
  | { state: 'proposed'; token: string; change: Extract<ProposedChange, { kind: 'create' }> }
  | { state: 'saved'; path: string }
  | { state: 'failed'; message: string };

/** The first lines of the proposed note, as the approval shows them. */
const previewLines = 12;

/**
 * A web page the answer used: its title and address open it in the system browser; Save to vault
 * proposes it as a note (title, address and date in frontmatter), written only once approved here.
 */
export function WebReferenceEntry({
  entry,
  sessionId,
  details,
}: {
  entry: { path: string; title: string };
  sessionId: string;
  details: React.ReactNode;
}) {
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });
  const propose = () => {
    setSaving({ state: 'proposing' });
    kasten.web.save({ sessionId, url: entry.path }).then(
      (proposal) => setSaving({ state: 'proposed', ...proposal }),
      (error: unknown) => setSaving({ state: 'failed', message: describeError(error) }),
    );
  };
  const decide = (token: string, approved: boolean) =>
    kasten.web.decide({ token, approved }).then(
      (saved) => setSaving(saved ? { state: 'saved', path: saved.path } : { state: 'idle' }),
      (error: unknown) => setSaving({ state: 'failed', message: describeError(error) }),
    );
  return (
    <li className="reference reference-web" data-testid="reference">
      <button type="button" className="reference-open" onClick={() => openWebPage(entry.path)}>
        <span className="reference-title">
          <Globe size={13} aria-hidden /> {entry.title}
        </span>
        <span className="reference-path muted small" data-testid="reference-address">
          {entry.path}
        </span>
        {details}
      </button>
      {saving.state === 'proposed' ? (
        <div
          className="web-save-approval"
          role="group"
          aria-label="Save the page as a note"
          data-testid="web-save-approval"
        >
          <span className="small">
            Create <strong>{saving.change.path}</strong>?
          </span>
          <pre className="web-save-preview small">
            {saving.change.content.split('\n').slice(0, previewLines).join('\n')}
          </pre>
          <div className="web-save-actions">
            <button type="button" className="primary" onClick={() => void decide(saving.token, true)}>
              Approve
            </button>
            <button type="button" onClick={() => void decide(saving.token, false)}>
              Reject
            </button>
          </div>
        </div>
      ) : saving.state === 'saved' ? (
        <span className="muted small" role="status" data-testid="web-saved">
          Saved as {saving.path}
        </span>
      ) : (
        <button
          type="button"
          className="web-save small"
          disabled={saving.state === 'proposing'}
          onClick={propose}
        >
          Save to vault
        </button>
      )}
      {saving.state === 'failed' && (
        <span className="error small" role="alert">
          {saving.message}
        </span>
      )}
    </li>
  );
}
