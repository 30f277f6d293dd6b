import { useEffect, useRef } from 'react';
import { PinButton } from '../items/PinButton';
import { RelatedSection } from '../related/RelatedSection';
import { MarkdownNote } from './MarkdownNote';
import { NoteLinks } from './NoteLinks';
import { NoteProperties } from './NoteProperties';
import { useNoteStore } from './note-store';
import { subpathLine } from './subpath-line';
import { SelectionBar } from '../ask/SelectionBar';
import { SelectionPrompts } from '../prompts/SelectionPrompts';
import { showPassage } from '../ask/passage-highlight';
import { rememberNoteScroll, takeRestoredScroll } from '../resume/resume';
import { anchorAt, holdInPlace, scrollToAnchor, writerOnPause } from '../../components/scroll-anchor';
import './notes.css';

/** The element showing source line `line` of the note itself (not of a note embedded in it). */
function elementAt(container: HTMLElement, line: number): HTMLElement | null {
  let best: HTMLElement | null = null;
  for (const element of ownBlocks(container)) {
    if (Number(element.dataset.line) <= line) best = element;
    else break;
  }
  return best;
}

/** The note's own blocks (not those of notes embedded in it), in document order. */
function ownBlocks(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('[data-line]')].filter(
    (element) => !element.parentElement?.closest('.note-embed'),
  );
}

const writeScroll = writerOnPause();
/** Where the reader is in the note (the block at the top), written once scrolling pauses. */
function rememberScroll(path: string, container: HTMLElement) {
  writeScroll(() => {
    const anchor = container.scrollTop > 0 ? anchorAt(container, ownBlocks(container), lineOf) : null;
    rememberNoteScroll(path, anchor && { line: Number(anchor.key), offset: anchor.offset });
  });
}

function lineOf(element: HTMLElement): string | null {
  return element.dataset.line ?? null;
}

/** The open note, rendered; links open their targets here, at the heading, block or line. */
export function NoteViewer() {
  const { path, note, backlinks, line, subpath, passage, visit, error, open, close } = useNoteStore();
  const body = useRef<HTMLDivElement>(null);
  const article = useRef<HTMLElement>(null);
  const shownVisit = useRef(-1);

  useEffect(() => {
    const container = body.current;
    if (!container || !note || shownVisit.current === visit) return;
    shownVisit.current = visit;
    container.scrollTop = 0;
    const restored = takeRestoredScroll(note.path);
    const anchor = restored && elementAt(container, restored.line);
    if (restored && anchor)
      return holdInPlace(container, () => scrollToAnchor(container, anchor, restored.offset));
    const marked = passage && article.current ? showPassage(article.current, passage) : null;
    if (marked) return marked;
    // Parsed only on a navigation, not on the reloads that follow index changes.
    const targetLine = subpath ? (subpathLine(note, subpath) ?? line) : line;
    const target = targetLine === null ? null : elementAt(container, targetLine);
    if (!target) return;
    target.classList.add('flash');
    const release = holdInPlace(container, () => target.scrollIntoView({ block: 'start' }));
    return () => {
      release();
      target.classList.remove('flash');
    };
  }, [note, line, subpath, passage, visit]);

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
      <div className="note-body" ref={body} onScroll={(event) => rememberScroll(path, event.currentTarget)}>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : note ? (
          <>
            <article className="markdown" ref={article}>
              <NoteProperties content={note.content} path={note.path} onOpen={open} />
              <MarkdownNote content={note.content} path={note.path} links={note.links} onOpen={open} />
            </article>
            <SelectionBar
              body={article}
              path={note.path}
              title={title}
              selectionPrompts={(selection) => <SelectionPrompts selection={selection} />}
            />
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
