import type { HybridSearchResult, SemanticHit, SemanticResult } from '../../shared/embedding-domain';
import type { SearchHit, SearchRequest } from '../../shared/index-domain';
import { fuseRankings } from './rank-fusion';
import { withSnippet, type FoundPassage } from './vector-search';

export interface HybridSearchSources {
  lexical: (request: SearchRequest) => Promise<SearchHit[]>;
  /** The notes found by meaning, with their passages as stored: snippets are made for those shown. */
  semantic: (
    query: string,
    limit: number,
    filter: { folder?: string; tag?: string },
  ) => Promise<SemanticResult<FoundPassage[]>>;
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
    semantic(request.query, limit, filter).catch((error: Error): SemanticResult<FoundPassage[]> => ({
      ok: false,
      unavailable: { code: 'failed', message: error.message },
    })),
  ]);
  if (!semanticResult.ok) return { hits: lexicalHits, lexicalOnly: semanticResult.unavailable };
  type Found = SearchHit | FoundPassage;
  const fused = fuseRankings<Found>([lexicalHits, semanticResult.value], (hit) => hit.path).map(
    ({ items, score }) => ({ hit: (items[0] ?? items[1])!, score }),
  );
  // The notes the query names keep the top, as on the words side: fusion would let a note close in
  // meaning and found by some words come before the note titled exactly so.
  const named = (found: { hit: Found }) => 'match' in found.hit && found.hit.match === 'title';
  const shown = [...fused.filter(named), ...fused.filter((found) => !named(found))].slice(0, limit);
  const hits = shown.map(({ hit, score }): SearchHit => {
    const lexical = 'passage' in hit ? semanticSearchHit(withSnippet(hit)) : hit;
    return { ...lexical, score };
  });
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
