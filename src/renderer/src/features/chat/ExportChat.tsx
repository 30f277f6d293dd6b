import { useRef, useState } from 'react';
import { describeError, kasten } from '../../api';
import { useEscapeLayer } from '../../components/use-escape-layer';
import { ExportNotice } from './ExportNotice';

type Outcome = { sessionId: string } & (
  { kind: 'done'; path: string; updated: boolean } | { kind: 'failed'; message: string }
);

/**
 * "Export": the chat as a Markdown note in the vault (a folder of the user's choice, `Kasten chats` by
 * default). A new note each time; the last export is written over only when the user ticks Update.
 */
export function ExportChat({ sessionId }: { sessionId: string | null }) {
  const [open, setOpen] = useState(false);
  const [folder, setFolder] = useState('Kasten chats');
  const [update, setUpdate] = useState(false);
  const [busy, setBusy] = useState(false);
  const [last, setOutcome] = useState<Outcome | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // What the last export of another chat did is not this chat's.
  const outcome = last?.sessionId === sessionId ? last : null;

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  useEscapeLayer(
    open,
    () => setOpen(false),
    () => button.current,
  );
  const run = async () => {
    if (!sessionId) return;
    setBusy(true);
    try {
      const exported = await kasten.sessions.export({ id: sessionId, folder, update });
      setOutcome({ sessionId, kind: 'done', ...exported });
      setOpen(false);
    } catch (error) {
      setOutcome({ sessionId, kind: 'failed', message: describeError(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="export-chat">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        disabled={sessionId === null}
        onClick={() => setOpen(!open)}
      >
        Export
      </button>
      {open && (
        <div className="export-popover" role="dialog" aria-label="Export this chat to a note">
          <label>
            Folder in the vault
            <input value={folder} onChange={(event) => setFolder(event.target.value)} autoFocus />
          </label>
          <label className="small">
            <input type="checkbox" checked={update} onChange={(event) => setUpdate(event.target.checked)} />
            Update the note of the last export instead of making a new one
          </label>
          <div className="export-actions">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={busy} onClick={() => void run()}>
              Export to note
            </button>
          </div>
          {outcome?.kind === 'failed' && (
            <p role="alert" className="small">
              {outcome.message}
            </p>
          )}
        </div>
      )}
      {outcome?.kind === 'done' && !open && (
        <ExportNotice
          sessionId={outcome.sessionId}
          path={outcome.path}
          updated={outcome.updated}
          onClose={() => setOutcome(null)}
        />
      )}
    </div>
  );
}
