import { embeddingsShown, useEmbeddingStore } from './embedding-store';
import './embeddings.css';

/**
 * Embedding progress with Cancel while a run goes on (or waits for the chat model to finish answering
 * on the same server); a short word when one failed or was cancelled. Nothing while embeddings are off.
 */
export function EmbeddingIndicator() {
  const progress = useEmbeddingStore((state) => state.progress);
  const shown = useEmbeddingStore(embeddingsShown);
  const { cancel } = useEmbeddingStore.getState();
  if (!progress || !shown) return null;

  if (progress.state === 'running' || progress.state === 'paused') {
    const count = `${progress.done.toLocaleString()} / ${progress.total.toLocaleString()}`;
    // Cutting notes into passages counts notes; embedding counts passages.
    const label =
      progress.phase === 'embedding'
        ? `Embedding ${count} passages`
        : `Preparing notes ${count} for embedding`;
    return (
      <span className="index-progress" data-testid="embedding-progress">
        <progress max={Math.max(progress.total, 1)} value={progress.done} aria-label="Embedding" />
        <span>
          {label}
          {progress.state === 'paused' && <span className="muted"> · paused while the model answers</span>}
        </span>
        <button type="button" className="link-button" onClick={() => void cancel()}>
          Cancel
        </button>
      </span>
    );
  }
  if (progress.state === 'error') {
    return (
      <span
        className="embedding-failed"
        data-testid="embedding-failed"
        title={progress.error ?? 'The embedding server failed.'}
      >
        Embeddings failed
      </span>
    );
  }
  if (progress.state === 'cancelled') {
    return (
      <span
        className="muted"
        data-testid="embedding-cancelled"
        title="The passages embedded so far are kept; the rest follow with the next run."
      >
        Embedding cancelled
      </span>
    );
  }
  return null;
}
