import { useSettingsStore } from '../settings/settings-store';
import { windowOrigin } from '../settings/window-origin';
import { problemWords, useModelHealthStore } from './model-health-store';

/** The chat model and its context window; opens the settings. Summary progress while it runs. */
export function ModelStatus() {
  const setup = useSettingsStore((state) => state.setup);
  const window = useSettingsStore((state) => state.window);
  const summaries = useSettingsStore((state) => state.summaries);
  const { show, cancelSummaries } = useSettingsStore.getState();
  const model = setup?.settings.model;
  const report = useModelHealthStore((state) => state.report);
  const problem = model && report && !report.ok ? report : null;
  return (
    <>
      {summaries?.state === 'running' && summaries.total > 0 && (
        <span className="status-summaries" data-testid="summary-status">
          Summarizing {summaries.done}/{summaries.total}{' '}
          <button type="button" className="link-button" onClick={() => void cancelSummaries()}>
            Cancel
          </button>
        </span>
      )}
      {problem && (
        <button
          type="button"
          className="link-button status-model-problem"
          data-testid="model-problem"
          title={`${problem.message} Click for settings.`}
          onClick={() => show(true)}
        >
          ⚠ {problem.problem ? problemWords[problem.problem] : 'Model unavailable'}
        </button>
      )}
      <button
        type="button"
        className="link-button status-model"
        data-testid="model-status"
        data-window-source={window?.source}
        title={
          window
            ? `Context window of ${window.tokens.toLocaleString()} tokens, ${windowOrigin(window)}. Click for settings.`
            : 'Settings'
        }
        onClick={() => show(true)}
      >
        {model ? model : 'No model chosen'}
        {model && window && ` · ${Math.round(window.tokens / 1024)}k context`}
      </button>
    </>
  );
}
