import type { HybridSearchResult, SemanticHit, SemanticResult } from '../../shared/embedding-domain';
import type { SearchHit, SearchRequest } from '../../shared/index-domain';
import { fuseRankings } from './rank-fusion';

export interface HybridSearchSources {
  lexical: (request: SearchRequest) => Promise<SearchHit[]>;
  semantic: (
    query: string,
    limit: number,
    filter: { folder?: string; tag?: string },
  ) => Promise<SemanticResult<SemanticHit[]>>;
}

/**
 * Lexical and semantic hits fused by reciprocal rank fusion; `score` becomes the fused score. A note
 * both find keeps the lexical hit (its snippet marks the query's words). When semantic search cannot
 * answer, or fails, the lexical hits come back as they are, with the reason.
 */
export async function hybridSearch(
  request: SearchRequest,
  { lexical, semantic }: HybridSearchSources,
): Promise<HybridSearchResult> {
  const limit = request.limit ?? 20;
  const filter = { folder: request.folder, tag: request.tag };
  const [lexicalHits, semanticResult] = await Promise.all([
    lexical(request),
    semantic(request.query, limit, filter).catch((error: Error): SemanticResult<SemanticHit[]> => ({
      ok: false,
      unavailable: { code: 'failed', message: error.message },
    })),
  ]);
  if (!semanticResult.ok) return { hits: lexicalHits, lexicalOnly: semanticResult.unavailable };
  const semanticHits = semanticResult.value.map(semanticSearchHit);
  const fused = fuseRankings([lexicalHits, semanticHits], (hit) => hit.path).map(
    ({ items, score }): SearchHit => ({ ...(items[0] ?? items[1]!), score }),
  );
  // The notes the query names keep the top, as on the words side: fusion would let a note close in
  // meaning and found by some words come before the note titled exactly so.
  const named = fused.filter((hit) => hit.match === 'title');
  const hits = [...named, ...fused.filter((hit) => hit.match !== 'title')].slice(0, limit);
  return { hits, lexicalOnly: null };
}

/**
 * The items scoring at least `share` of the best score (above zero only): notes similar by words (BM25)
 * that still share telling words. Without a floor every note sharing one word became a missing link.
 */
export function closeToBest<T>(items: readonly T[], score: (item: T) => number, share: number): T[] {
  const best = Math.max(0, ...items.map(score));
  return items.filter((item) => score(item) > 0 && score(item) >= best * share);
}

/** A note found by meaning, as a search hit: its score is the similarity of its closest passage. */
export function semanticSearchHit(hit: SemanticHit): SearchHit {
  return {
    path: hit.path,
    title: hit.title,
    score: hit.similarity,
    snippet: hit.snippet,
    ranker: 'semantic',
  };
}
