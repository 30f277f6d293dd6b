import { useEffect, useRef } from 'react';
import { PinButton } from '../items/PinButton';
import { RelatedSection } from '../related/RelatedSection';
import { MarkdownNote } from './MarkdownNote';
import { NoteLinks } from './NoteLinks';
import { useNoteStore } from './note-store';
import { subpathLine } from './subpath-line';
import { rememberNoteScroll, takeRestoredScroll } from '../resume/resume';
import './notes.css';

/** The element showing source line `line` of the note itself (not of a note embedded in it). */
function elementAt(container: HTMLElement, line: number): HTMLElement | null {
  let best: HTMLElement | null = null;
  for (const element of container.querySelectorAll<HTMLElement>('[data-line]')) {
    if (element.parentElement?.closest('.note-embed')) continue;
    if (Number(element.dataset.line) <= line) best = element;
    else break;
  }
  return best;
}

let scrollTimer: ReturnType<typeof setTimeout> | undefined;
/** Where the reader is in the note, written once scrolling pauses rather than on every frame. */
function rememberScroll(path: string, top: number) {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => rememberNoteScroll(path, top), 150);
}

/** The open note, rendered; links open their targets here, at the heading, block or line. */
export function NoteViewer() {
  const { path, note, backlinks, line, subpath, visit, error, open, close } = useNoteStore();
  const body = useRef<HTMLDivElement>(null);
  const shownVisit = useRef(-1);

  useEffect(() => {
    const container = body.current;
    if (!container || !note || shownVisit.current === visit) return;
    shownVisit.current = visit;
    container.scrollTop = takeRestoredScroll(note.path) ?? 0;
    // Parsed only on a navigation, not on the reloads that follow index changes.
    const targetLine = subpath ? (subpathLine(note, subpath) ?? line) : line;
    const target = targetLine === null ? null : elementAt(container, targetLine);
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    target.classList.add('flash');
    // Embeds and images above the target load afterwards and push it down: keep it in place while they
    // settle, until the user scrolls.
    const keep = new ResizeObserver(() => target.scrollIntoView({ block: 'start' }));
    keep.observe(container.firstElementChild ?? container);
    const stop = () => keep.disconnect();
    const timer = setTimeout(stop, 2000);
    for (const event of ['wheel', 'keydown', 'pointerdown', 'touchstart'])
      container.addEventListener(event, stop, { once: true, passive: true });
    return () => {
      stop();
      clearTimeout(timer);
      target.classList.remove('flash');
    };
  }, [note, line, subpath, visit]);

  if (!path) return null;
  const title = note?.name ?? path.replace(/\.md$/i, '');
  return (
    <section className="note-viewer" aria-label="Note viewer">
      <header className="pane-header">
        <div className="note-heading">
          <h2 className="note-title">{title}</h2>
          <span className="note-path">{path}</span>
        </div>
        {note && <PinButton path={note.path} title={title} className="note-pin" />}
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
      <div
        className="note-body"
        ref={body}
        onScroll={(event) => rememberScroll(path, event.currentTarget.scrollTop)}
      >
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : note ? (
          <>
            <article className="markdown">
              <MarkdownNote content={note.content} path={note.path} links={note.links} onOpen={open} />
            </article>
            <NoteLinks backlinks={backlinks} outgoing={note.links} onOpen={open} />
            <RelatedSection path={note.path} onOpen={open} />
          </>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    </section>
  );
}
