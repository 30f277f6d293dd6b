import type { EmbeddingProgress, SemanticUnavailable } from '../../shared/embedding-domain';
import type { VectorOrigin } from './chunk-store';

/**
 * Why semantic search cannot answer, as far as the settings and the stored vectors' origin tell; null
 * when it may (there may still be no vector at all: see notBuilt). Messages complete "lexical only,
 * because …".
 */
export function unavailability(
  model: { name: string; identity: string } | null,
  origin: VectorOrigin | null,
  progress: EmbeddingProgress,
): SemanticUnavailable | null {
  if (!model) return { code: 'off', message: 'no embedding model is configured' };
  if (origin !== null && origin.identity !== model.identity && origin.dimensions !== null) {
    return { code: 'rebuilding', message: `the notes are being embedded again with ${model.name}` };
  }
  if (origin?.identity !== model.identity || origin.dimensions === null) return notBuilt(progress);
  return null;
}

/** Nothing is embedded yet; with why, when the last run failed. */
export function notBuilt({ state, error }: EmbeddingProgress): SemanticUnavailable {
  const failed = state === 'error' && error ? ` (${lowerFirst(error)})` : '';
  return { code: 'not-built', message: `the notes have not been embedded yet${failed}` };
}

export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
