import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import type { NoteSelection } from '../../../../shared/selection-domain';
import { useAskStore } from './ask-store';
import { viewerSelection, type ViewerSelection } from './note-selection';
import './ask.css';

/** The bar's height and gap, to keep it on screen below or above the selection. */
const barRoom = 44;

/**
 * A small bar beside a selection in the note's body: "Ask" sends the passage to the composer, with its
 * note and heading, for the next message to ask about. A whitespace-only selection, or one reaching
 * outside the body, shows no bar.
 */
export function SelectionBar({
  body,
  path,
  title,
  selectionPrompts,
}: {
  /** The note's rendered body: only a selection inside it counts. */
  body: RefObject<HTMLElement | null>;
  path: string;
  title: string;
  /** Slot for the saved prompts that use `{{selection}}`: their buttons, given the selection. */
  selectionPrompts?: (selection: NoteSelection) => ReactNode;
}) {
  const [current, setCurrent] = useState<ViewerSelection | null>(null);
  useEffect(() => {
    let frame = 0;
    const read = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const element = body.current;
        setCurrent(element ? viewerSelection(element, path, document.getSelection()) : null);
      });
    };
    document.addEventListener('selectionchange', read);
    // The bar follows the selection as the note scrolls under it.
    document.addEventListener('scroll', read, true);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('selectionchange', read);
      document.removeEventListener('scroll', read, true);
    };
  }, [body, path]);
  if (!current) return null;
  const { rect, selection, refused } = current;
  const below = rect.bottom + barRoom < window.innerHeight;
  const style = {
    top: below ? rect.bottom + 6 : Math.max(4, rect.top - barRoom),
    left: Math.max(4, Math.min(rect.left, window.innerWidth - 220)),
  };
  return (
    <div
      className="selection-bar"
      role="toolbar"
      aria-label="Selected text"
      data-testid="selection-bar"
      style={style}
      // Pressing a button of the bar must not take the selection away first.
      onMouseDown={(event) => event.preventDefault()}
    >
      <button
        type="button"
        className="primary small"
        disabled={refused !== null}
        title={refused ?? `Ask about this passage of “${title}” in the chat`}
        onClick={() => {
          useAskStore.getState().ask({ selection, title });
          document.getSelection()?.removeAllRanges();
        }}
      >
        Ask
      </button>
      {refused === null && selectionPrompts?.(selection)}
      {refused && (
        <span className="small selection-refused" role="status">
          {refused}
        </span>
      )}
    </div>
  );
}
