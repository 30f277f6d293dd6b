import { useEffect } from 'react';
import type { RelatedNote, SemanticUnavailable } from '../../../../shared/embedding-domain';
import { sameNameLabel } from '../../../../shared/embedding-domain';
import { useEmbeddingStore } from '../embeddings/embedding-store';
import type { OpenNote } from '../notes/WikiLink';
import { useSettingsStore } from '../settings/settings-store';
import { useIndexStore } from '../status/index-store';
import { useRelatedStore } from './related-store';
import './related.css';

const missingLinkTitle = 'Similar, but neither note links to the other: a link that may be missing.';
const sameNameTitle =
  'A note with the same file name in another folder, such as a translation: not offered as a missing link.';

function RelatedItem({ note, onOpen }: { note: RelatedNote; onOpen: OpenNote }) {
  return (
    <li className={`related-note${note.missingLink ? ' missing-link' : ''}`} data-testid="related-note">
      {/* A button, as under Outgoing links: the viewer's links stay those the note holds. */}
      <button
        type="button"
        className="related-link"
        title={note.path}
        onClick={() => onOpen(note.path, null)}
      >
        {note.title}
      </button>{' '}
      {note.missingLink && (
        <span className="related-badge" title={missingLinkTitle} data-testid="missing-link">
          missing link
        </span>
      )}
      {note.sameNameIn !== null && (
        <span className="related-same-name" title={sameNameTitle} data-testid="same-name">
          {sameNameLabel(note.sameNameIn)}
        </span>
      )}{' '}
      <span className="related-reasons">{note.reasons.join(' · ')}</span>
    </li>
  );
}

/** Why "similar" means shared words here; with embeddings off, where to turn them on. */
function ByWordsHint({ semantic }: { semantic: SemanticUnavailable }) {
  const showSettings = useSettingsStore((state) => state.show);
  if (semantic.code !== 'off') {
    return <p className="related-hint">Similar by words, because {semantic.message}.</p>;
  }
  return (
    <p className="related-hint">
      Similar by words. To find notes similar in meaning, turn on{' '}
      <button type="button" className="link-button" onClick={() => showSettings(true, 'semantic-search')}>
        Settings → Semantic search
      </button>
      .
    </p>
  );
}

/**
 * Under the open note: the notes related to it, each with its reasons; similar notes that neither link
 * here nor are linked from here stand out as missing links. Reloaded as the index or the vectors change.
 */
export function RelatedSection({ path, onOpen }: { path: string; onOpen: OpenNote }) {
  const shownPath = useRelatedStore((state) => state.path);
  const related = useRelatedStore((state) => state.related);
  const error = useRelatedStore((state) => state.error);
  const collapsed = useRelatedStore((state) => state.collapsed);
  const { load, setCollapsed } = useRelatedStore.getState();
  const epoch = useIndexStore((state) => state.epoch);
  const vectors = useEmbeddingStore((state) => state.revision);

  useEffect(() => {
    void load(path);
  }, [load, path, epoch, vectors]);

  const notes = shownPath === path ? (related?.notes ?? null) : null;
  const missing = notes?.filter((note) => note.missingLink).length ?? 0;
  return (
    <section className="related" aria-label="Related notes">
      <details open={!collapsed} onToggle={(event) => setCollapsed(!event.currentTarget.open)}>
        <summary>
          <h3>
            Related <span className="muted">{notes?.length ?? ''}</span>{' '}
            {missing > 0 && (
              <span className="related-summary-missing" title={missingLinkTitle}>
                · {missing} missing {missing === 1 ? 'link' : 'links'}
              </span>
            )}
          </h3>
        </summary>
        {error ? (
          <p className="error small">{error}</p>
        ) : notes === null ? (
          <p className="muted small">Loading…</p>
        ) : notes.length === 0 ? (
          <p className="muted small">No related notes yet.</p>
        ) : (
          <ul className="related-list">
            {notes.map((note) => (
              <RelatedItem key={note.path} note={note} onOpen={onOpen} />
            ))}
          </ul>
        )}
        {related?.semantic && shownPath === path && <ByWordsHint semantic={related.semantic} />}
      </details>
    </section>
  );
}
