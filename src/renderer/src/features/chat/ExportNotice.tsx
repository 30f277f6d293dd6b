import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNoteStore } from '../notes/note-store';
import './export-notice.css';

/** How long the notice stays when the user does nothing else. */
const shownForMs = 20_000;

/**
 * Where the last export went, with Open; it goes when closed, at the user's next click or key press
 * elsewhere, or after a while, so it never stays over the chat.
 */
export function ExportNotice({
  path,
  updated,
  onClose,
}: {
  path: string;
  updated: boolean;
  onClose: () => void;
}) {
  const notice = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
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
      <span className="export-notice-text">
        {updated ? 'Updated' : 'Exported to'} {path}
      </span>
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
