import { issueCount, useHealthStore } from '../health/health-store';
import { useIndexStore } from './index-store';

function timeLeft(ms: number | null): string {
  if (ms === null) return '';
  const seconds = Math.ceil(ms / 1000);
  return seconds < 60 ? `, ${seconds} s left` : `, ${Math.ceil(seconds / 60)} min left`;
}

/** Indexing progress with Cancel while a pass runs; afterwards, the vault health button. */
export function IndexStatus() {
  const progress = useIndexStore((state) => state.progress);
  const cancel = useIndexStore((state) => state.cancel);
  const counts = useHealthStore((state) => state.counts);
  const shown = useHealthStore((state) => state.shown);
  const show = useHealthStore((state) => state.show);
  const issues = issueCount(counts);
  const indexing = progress?.state === 'indexing';
  const label = indexing
    ? 'Vault health'
    : issues > 0
      ? `⚠ ${issues} ${issues === 1 ? 'issue' : 'issues'}`
      : '✓ Vault healthy';

  return (
    <>
      {indexing && (
        <span className="index-progress" data-testid="index-progress">
          <progress max={Math.max(progress.total, 1)} value={progress.done} aria-label="Indexing" />
          <span>
            Indexing {progress.done.toLocaleString()} / {progress.total.toLocaleString()}
            {timeLeft(progress.etaMs)}
          </span>
          <button type="button" className="link-button" onClick={() => void cancel()}>
            Cancel
          </button>
        </span>
      )}
      {progress?.state === 'cancelled' && (
        <span className="muted">Indexing cancelled; it resumes next time.</span>
      )}
      <button
        type="button"
        className={`health-button${issues > 0 && !indexing ? ' has-issues' : ''}`}
        data-testid="health-button"
        aria-pressed={shown}
        title="Vault health: broken and ambiguous links, warnings"
        onClick={() => show(!shown)}
      >
        {label}
      </button>
    </>
  );
}
