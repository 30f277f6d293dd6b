import { useEffect, useRef } from 'react';
import { MarkdownNote } from './MarkdownNote';
import { useNoteStore } from './note-store';

function normalizeHeading(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The open note, rendered; wikilinks open their targets here. */
export function NoteViewer() {
  const { path, note, subpath, error, open, close } = useNoteStore();
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = body.current;
    if (!container || !note) return;
    container.scrollTop = 0;
    const heading = subpath
      ?.split('#')
      .filter((part) => part && !part.startsWith('^'))
      .at(-1);
    if (!heading) return;
    const match = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].find(
      (element) => normalizeHeading(element.textContent ?? '') === normalizeHeading(heading),
    );
    match?.scrollIntoView({ block: 'start' });
  }, [note, subpath]);

  if (!path) return null;
  return (
    <section className="note-viewer" aria-label="Note viewer">
      <header className="pane-header">
        <div className="note-heading">
          <h2 className="note-title">{note?.name ?? path.replace(/\.md$/i, '')}</h2>
          <span className="note-path">{path}</span>
        </div>
        <button
          type="button"
          className="icon-button"
          onClick={close}
          aria-label="Close note"
          title="Close note"
        >
          ×
        </button>
      </header>
      <div className="note-body markdown" ref={body}>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : note ? (
          <MarkdownNote
            content={note.content}
            path={note.path}
            onOpenNote={(target, sub) => void open(target, sub)}
          />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    </section>
  );
}
