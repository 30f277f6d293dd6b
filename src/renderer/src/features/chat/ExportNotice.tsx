import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { describeError, kasten } from '../../api';
import { useNoteStore } from '../notes/note-store';
import './export-notice.css';

/** How long the notice stays when the user does nothing else. */
const shownForMs = 20_000;

/**
 * Where the last export went, with Open and Undo (the note gets back what it held, or goes when the
 * export made it, while it is as the export left it); it goes when closed, at the user's next click or key press
 * elsewhere, or after a while, so it never stays over the chat.
 */
export function ExportNotice({
  sessionId,
  path,
  updated,
  onClose,
}: {
  sessionId: string;
  path: string;
  updated: boolean;
  onClose: () => void;
}) {
  const notice = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  /** What Undo did, in words; null before it was pressed. */
  const [undone, setUndone] = useState<{ message: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const undo = async () => {
    setBusy(true);
    try {
      const outcome = await kasten.writes.undoExport({ sessionId, path });
      setUndone({ message: outcome.message, failed: !outcome.undone });
    } catch (error) {
      setUndone({ message: describeError(error), failed: true });
    }
    setBusy(false);
  };
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const elsewhere = (event: Event) => {
      if (!notice.current?.contains(event.target as Node | null)) close.current();
    };
    document.addEventListener('pointerdown', elsewhere, true);
    document.addEventListener('keydown', elsewhere, true);
    const timer = setTimeout(() => close.current(), shownForMs);
    return () => {
      document.removeEventListener('pointerdown', elsewhere, true);
      document.removeEventListener('keydown', elsewhere, true);
      clearTimeout(timer);
    };
  }, []);
  return (
    <div ref={notice} className="export-result export-notice small" role="status" data-testid="export-notice">
      <span
        className={`export-notice-text${undone?.failed ? ' message-error' : ''}`}
        data-testid="export-notice-text"
      >
        {undone ? undone.message : `${updated ? 'Updated' : 'Exported to'} ${path}`}
      </span>
      {!undone && (
        <button type="button" disabled={busy} onClick={() => void undo()}>
          Undo
        </button>
      )}
      <button
        type="button"
        onClick={() => {
          void useNoteStore.getState().open(path);
          onClose();
        }}
      >
        Open
      </button>
      <button type="button" className="icon-button" aria-label="Close" title="Close" onClick={onClose}>
        <X size={14} aria-hidden />
      </button>
    </div>
  );
}
