import { useState } from 'react';
import type { SessionItemKind } from '../../../../shared/context-items-domain';
import { useItemsStore } from './items-store';
import './item-switch.css';

/** Puts a manual (or agent) rule or tool in this chat or takes it out; main's refusal shows under it. */
export function ItemSwitch({
  kind,
  itemKey,
  name,
  on,
}: {
  kind: SessionItemKind;
  itemKey: string;
  name: string;
  on: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <label
        className="item-switch"
        title={on ? 'In this chat: click to take it out' : 'Add it to this chat'}
      >
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={busy}
          aria-label={`Use “${name}” in this chat`}
          onChange={async (event) => {
            setBusy(true);
            setError(await useItemsStore.getState().set(kind, itemKey, event.target.checked, name));
            setBusy(false);
          }}
        />
        <span className="item-switch-track" aria-hidden />
      </label>
      {error && (
        <span className="item-error small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
