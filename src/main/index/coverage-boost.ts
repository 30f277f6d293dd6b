import type { RankedNote } from './ranking-task';

/**
 * Some-words candidates, best first: each bm25 score times the share of the query's terms the note
 * holds (`held`, by note id; 1 when unknown), the coordination factor of classic Lucene scoring, so that
 * a note with three of four words comes before one that repeats a single word. Equal scores go by id.
 * (On the eval questions a square of the share, or the share before bm25, ranked the wanted note a
 * little lower: mean reciprocal rank 0.878 against 0.893.)
 */
export function boostByCoverage(
  candidates: readonly RankedNote[],
  held: ReadonlyMap<number, number>,
  terms: number,
): RankedNote[] {
  return candidates
    .map(({ id, score }) => ({ id, score: (score * (held.get(id) ?? 1)) / terms }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
