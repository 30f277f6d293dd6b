import { useEffect, useState } from 'react';
import { contextStrategies, type ContextSettings } from '../../../../shared/context-domain';
import { useContextStore } from './context-store';

const strategyNotes: Record<ContextSettings['strategy'], string> = {
  hybrid: 'old tool results shrink first, then older turns are summarized',
  summarize: 'older turns are summarized',
  discard: 'the oldest turns are left out',
};

/** Settings → Context: how requests are fitted to the model's window. */
export function ContextSettingsSection() {
  const saved = useContextStore((state) => state.settings);
  const { loadSettings } = useContextStore.getState();
  useEffect(() => void loadSettings(), [loadSettings]);
  // The draft starts from the settings as first loaded and stays the user's while the dialog is open.
  return saved ? <ContextSettingsForm saved={saved} /> : null;
}

function ContextSettingsForm({ saved }: { saved: ContextSettings }) {
  const error = useContextStore((state) => state.settingsError);
  const { saveSettings } = useContextStore.getState();
  const [draft, setDraft] = useState<ContextSettings>(saved);
  const [done, setDone] = useState(false);
  const total = draft.shares.system + draft.shares.context + draft.shares.conversation;
  const number = (value: string) => (value.trim() === '' ? Number.NaN : Math.round(Number(value)));
  const share = (part: keyof ContextSettings['shares'], label: string) => (
    <label className="field">
      {label}
      <input
        type="number"
        min={0}
        max={100}
        value={Number.isNaN(draft.shares[part]) ? '' : draft.shares[part]}
        onChange={(event) =>
          setDraft({ ...draft, shares: { ...draft.shares, [part]: number(event.target.value) } })
        }
        data-testid={`context-share-${part}`}
      />
    </label>
  );
  return (
    <section className="settings-section context-settings" aria-label="Context">
      <h3>Context window</h3>
      <p className="field-note">
        When a chat no longer fits the model’s window, its strategy decides what gives way. Nothing is
        deleted: summarized messages stay in the chat.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void saveSettings(draft).then(setDone);
        }}
      >
        <label className="field">
          New chats start with
          <select
            value={draft.strategy}
            onChange={(event) =>
              setDraft({ ...draft, strategy: event.target.value as ContextSettings['strategy'] })
            }
            data-testid="context-default-strategy"
          >
            {contextStrategies.map((strategy) => (
              <option key={strategy} value={strategy}>
                {strategy}: {strategyNotes[strategy]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Compact past (% of usable)
          <input
            type="number"
            min={50}
            max={95}
            value={Number.isNaN(draft.threshold) ? '' : draft.threshold}
            onChange={(event) => setDraft({ ...draft, threshold: number(event.target.value) })}
            data-testid="context-threshold"
          />
        </label>
        <label className="field">
          Turns kept word for word
          <input
            type="number"
            min={1}
            max={20}
            value={Number.isNaN(draft.tailTurns) ? '' : draft.tailTurns}
            onChange={(event) => setDraft({ ...draft, tailTurns: number(event.target.value) })}
            data-testid="context-tail"
          />
        </label>
        <fieldset className="field-group">
          <legend>Shares of the usable window (%)</legend>
          {share('system', 'System prompt')}
          {share('context', 'Tools, rules and notes')}
          {share('conversation', 'Conversation')}
        </fieldset>
        {total !== 100 && <p className="field-note">The shares add up to {total}%, not 100%.</p>}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="field-row">
          <button type="submit" disabled={total !== 100} data-testid="context-settings-save">
            Save context settings
          </button>
          {done && !error && <span className="muted small">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
