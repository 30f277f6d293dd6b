import { Pin } from 'lucide-react';
import { useState } from 'react';
import { useItemsStore, usePinned } from './items-store';
import './pin-button.css';

/**
 * Pins a note to the open chat (the model gets all of it in every request) or unpins it; pressed while
 * pinned, and named for what a click does now. Main's refusal shows beside it.
 */
export function PinButton({
  path,
  title,
  className = '',
}: {
  path: string;
  title: string;
  className?: string;
}) {
  const pinned = usePinned(path);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => setError(await useItemsStore.getState().set('pinned', path, !pinned, title));
  return (
    <span className={`pin-control ${className}`}>
      <button
        type="button"
        className={`icon-button pin-button${pinned ? ' pinned' : ''}`}
        aria-pressed={pinned}
        aria-label={pinned ? `Unpin “${title}” from this chat` : `Pin “${title}” to this chat`}
        title={
          pinned
            ? 'Unpin from this chat: the model gets this note in every request of it until then.'
            : 'Pin to this chat: the model gets this note in every request of it.'
        }
        data-testid="pin-button"
        onClick={() => void toggle()}
      >
        <Pin size={15} aria-hidden fill={pinned ? 'currentColor' : 'none'} />
      </button>
      {error && (
        <span className="pin-error small" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
