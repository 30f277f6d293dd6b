import { useSettingsStore } from './settings-store';

/** Background summaries: on or off, run now, progress. */
export function SummarySettings() {
  const setup = useSettingsStore((state) => state.setup);
  const progress = useSettingsStore((state) => state.summaries);
  const { setBackgroundSummaries, summarizeNow, cancelSummaries } = useSettingsStore.getState();
  if (!setup) return null;
  const running = progress?.state === 'running';
  const { model } = setup.settings;
  // As the main process reads it: a blank summary model is the chat model.
  const summaryModel = setup.settings.summaryModel?.trim() ? setup.settings.summaryModel : null;
  const writer = summaryModel ?? (model.trim() === '' ? null : model);
  return (
    <section className="settings-section" aria-label="Summaries">
      <h3>Note summaries</h3>
      <p className="field-note">
        Every note has its lead paragraph as a summary. With a model chosen, Kasten can write a one-to-two
        sentence summary of each note, kept until the note changes. That is one model call per note: free on a
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
        Summarize notes in the background
        {!setup.backgroundAllowed && <span className="muted small">(off for this run: --no-summaries)</span>}
      </label>
      <div className="field-row">
        <button type="button" disabled={running || writer === null} onClick={() => void summarizeNow()}>
          Summarize now
        </button>
        {running && (
          <button type="button" onClick={() => void cancelSummaries()}>
            Cancel
          </button>
        )}
        {progress && progress.total > 0 && (
          <span className="muted small" data-testid="summary-progress">
            {running ? 'Summarizing' : progress.state === 'cancelled' ? 'Cancelled at' : 'Summarized'}{' '}
            {progress.done} of {progress.total}
            {progress.failed > 0 && ` · ${progress.failed} failed: ${progress.firstError ?? ''}`}
          </span>
        )}
      </div>
    </section>
  );
}
