import { useState } from 'react';
import type { SummaryEstimate } from '../../../../shared/model-domain';
import { describeSummaryEstimate } from '../../../../shared/summary-estimate-text';
import { useSettingsStore } from './settings-store';

/** The whole vault's run, said before it starts: how many notes, tokens and (hosted) cost; Start or not. */
function VaultEstimate({ estimate, onDone }: { estimate: SummaryEstimate; onDone: () => void }) {
  const { summarizeVault } = useSettingsStore.getState();
  return (
    <div className="summary-estimate" role="group" aria-label="Summarize the whole vault">
      <p className="field-note" data-testid="summary-estimate">
        {describeSummaryEstimate(estimate)}
      </p>
      <div className="field-row">
        {estimate.notes > 0 && (
          <button
            type="button"
            onClick={() => {
              onDone();
              void summarizeVault(estimate.needsConfirmation);
            }}
          >
            Start: {estimate.notes.toLocaleString('en-US')} {estimate.notes === 1 ? 'note' : 'notes'}
          </button>
        )}
        <button type="button" onClick={onDone}>
          {estimate.notes > 0 ? 'Not now' : 'Close'}
        </button>
      </div>
    </div>
  );
}

/** Summaries of notes as they are used; the whole vault when asked, its cost said first; progress. */
export function SummarySettings() {
  const setup = useSettingsStore((state) => state.setup);
  const progress = useSettingsStore((state) => state.summaries);
  const { setBackgroundSummaries, estimateSummaries, cancelSummaries } = useSettingsStore.getState();
  const [estimate, setEstimate] = useState<SummaryEstimate | 'counting' | null>(null);
  if (!setup) return null;
  const running = progress?.state === 'running';
  const { model } = setup.settings;
  // As the main process reads it: a blank summary model is the chat model.
  const summaryModel = setup.settings.summaryModel?.trim() ? setup.settings.summaryModel : null;
  const writer = summaryModel ?? (model.trim() === '' ? null : model);
  const askEstimate = async () => {
    setEstimate('counting');
    setEstimate(await estimateSummaries());
  };
  return (
    <section className="settings-section" aria-label="Summaries">
      <h3>Note summaries</h3>
      <p className="field-note">
        Every note has its lead paragraph as a summary. With a model chosen, Kasten can write a one-to-two
        sentence summary of a note, kept until the note changes. That is one model call per note: free on a
        local server, billed on a hosted one.
      </p>
      <p className="field-note" data-testid="summary-model">
        {writer === null
          ? 'No model is chosen to write summaries.'
          : `Summaries of notes and of compacted chats are written by ${writer}${summaryModel === null ? ', the chat model' : ''}.`}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          disabled={!setup.backgroundAllowed}
          checked={setup.summaries.background && setup.backgroundAllowed}
          onChange={(event) => void setBackgroundSummaries(event.target.checked)}
        />
        Summarize notes as they are used
        {!setup.backgroundAllowed && <span className="muted small">(off for this run: --no-summaries)</span>}
      </label>
      <p className="field-note">
        A note is summarized when it is first shown here or referenced in a chat, never the whole vault
        unasked.
      </p>
      <div className="field-row">
        <button
          type="button"
          disabled={running || writer === null || estimate !== null}
          onClick={() => void askEstimate()}
        >
          Summarize the whole vault…
        </button>
        {running && (
          <button type="button" onClick={() => void cancelSummaries()}>
            Cancel
          </button>
        )}
        {estimate === 'counting' && <span className="muted small">Counting the notes and their tokens…</span>}
        {progress && progress.total > 0 && (
          <span className="muted small" data-testid="summary-progress">
            {running ? 'Summarizing' : progress.state === 'cancelled' ? 'Cancelled at' : 'Summarized'}{' '}
            {progress.done} of {progress.total}
            {progress.failed > 0 && ` · ${progress.failed} failed: ${progress.firstError ?? ''}`}
          </span>
        )}
      </div>
      {estimate !== null && estimate !== 'counting' && (
        <VaultEstimate estimate={estimate} onDone={() => setEstimate(null)} />
      )}
    </section>
  );
}
