import type { PanelPinned } from './session-items-view';
import { exactTokens } from '../context/token-format';
import { openReference } from '../references/open-reference';
import { useItemsStore } from './items-store';

function pinState(note: PanelPinned): string | null {
  if (note.state === 'gone') return 'gone: the note was deleted or moved out of the vault';
  if (note.state === 'moved' && note.previousPath) return `moved from ${note.previousPath}`;
  return null;
}

/** The notes pinned to this chat: given whole (or their best passages) in every request of it. */
export function PinnedItems({ pinned }: { pinned: PanelPinned[] }) {
  if (pinned.length === 0) {
    return (
      <p className="items-empty small">
        Pin a note to give the model all of it in every request of this chat: use the pin on a reference or in
        the note viewer, or type <kbd>@</kbd> and its name in the message box.
      </p>
    );
  }
  return (
    <ul className="item-list">
      {pinned.map((note) => {
        const state = pinState(note);
        return (
          <li key={note.path} className="item" data-testid="pinned-item" data-state={note.state}>
            <div className="item-line">
              <button
                type="button"
                className="link-button item-name"
                disabled={note.state === 'gone'}
                title={`Open ${note.path}`}
                onClick={() => void openReference(note.path)}
              >
                {note.title}
              </button>
              <button
                type="button"
                className="item-action small"
                aria-label={`Unpin “${note.title}”`}
                onClick={() => void useItemsStore.getState().set('pinned', note.path, false)}
              >
                Unpin
              </button>
            </div>
            <div className="item-facts small">
              <span className="muted item-path">{note.path}</span>
              {note.state !== 'gone' && (
                <span className="item-tokens">
                  {note.tokens !== null
                    ? `${exactTokens(note.tokens)} tokens`
                    : note.pending
                      ? 'counting…'
                      : 'not in the next request'}
                </span>
              )}
            </div>
            {state && (
              <p
                className={`small ${note.state === 'gone' ? 'item-warning' : 'item-detail'}`}
                data-testid="pinned-state"
              >
                {state}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
