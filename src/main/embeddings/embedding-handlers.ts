import type { Caller, SearchMode } from '../../shared/contract';
import type {
  EmbeddingReport,
  EmbeddingSettingsRequest,
  EmbeddingStatus,
  HybridSearchResult,
  SearchResults,
  RelatedNotes,
  SemanticResult,
  SimilarNote,
} from '../../shared/embedding-domain';
import type {
  SearchHit,
  SearchPage,
  SearchPartial,
  SearchRequest,
  SimilarByWords,
} from '../../shared/index-domain';
import type { ModelSettings } from '../../shared/chat-domain';
import { asModelSettings } from '../llm/embedding-model';
import type { BackgroundEmbeddings } from './background-embeddings';
import type { EmbeddingService } from './embedding-service';
import type { EmbeddingSettingsStore } from './embedding-settings';
import { closeToBest, hybridSearch, semanticSearchHit } from './hybrid-search';
import { besideSameNames, relatedNotes, type RelatedSources, type SimilarReason } from './related-notes';

export interface EmbeddingHandlersOptions {
  service: EmbeddingService;
  settings: EmbeddingSettingsStore;
  background: BackgroundEmbeddings;
  /** The API keys (ApiKeys): a key from the environment goes only to a server the user confirmed. */
  keys: { admit(settings: ModelSettings, caller: Caller | undefined, confirmKey?: boolean): void };
  index: RelatedSources & {
    search(request: SearchRequest): Promise<SearchHit[]>;
    /** A page of a lexical search and how many notes it found. */
    searchPage(request: SearchRequest): Promise<SearchPage>;
    /** Whether searches may be missing notes (a first index is running or was cancelled). */
    searchPartial(): SearchPartial | null;
    /** Notes sharing the most distinctive words of the note at `path` (BM25 "more like this"). */
    similarByWords(path: string, limit: number): Promise<SimilarByWords[]>;
  };
}

/** A search request as the contract takes it. */
export type ModalSearchRequest = SearchRequest & { mode?: SearchMode };

/** How many similar notes related notes take, by meaning or by words, besides those of the same name. */
const similarLimit = 8;
/** How many are asked for: a note's translations come first, and are not counted (see besideSameNames). */
const similarAsked = 3 * similarLimit;
/** BM25 falls off faster than similarity: half the best score still shares telling words. */
const wordsNearBest = 0.5;

/**
 * The contract's handlers for embeddings, search in every mode, and related notes; each is parse (done
 * by the host) → one call → return.
 */
export function embeddingHandlers({ service, settings, background, keys, index }: EmbeddingHandlersOptions) {
  /** Search in a mode, the words side asked through `lexical`; without usable embeddings, lexical. */
  const searchWith = async (
    { mode, ...request }: ModalSearchRequest,
    lexical: (request: SearchRequest) => Promise<SearchHit[]>,
  ): Promise<HybridSearchResult> => {
    const chosen = mode ?? (settings.get().enabled ? 'hybrid' : 'lexical');
    if (chosen === 'lexical') return { hits: await lexical(request), lexicalOnly: null };
    if (chosen === 'hybrid') {
      return hybridSearch(request, {
        lexical,
        semantic: (query, limit, filter) => service.semanticPassages(query, limit, filter),
      });
    }
    const semantic = await service
      .semanticSearch(request.query, request.limit ?? 20, { folder: request.folder, tag: request.tag })
      .catch((error: Error) => ({
        ok: false as const,
        unavailable: { code: 'failed' as const, message: error.message },
      }));
    if (!semantic.ok) return { hits: await lexical(request), lexicalOnly: semantic.unavailable };
    return { hits: semantic.value.map(semanticSearchHit), lexicalOnly: null };
  };
  /** Search in a mode; without usable embeddings, lexical (the status says why). */
  const search = (request: ModalSearchRequest): Promise<HybridSearchResult> =>
    searchWith(request, (lexical) => index.search(lexical));
  /**
   * A page of a search in a mode. Lexically the page is ranked as such; fused, the best `offset + limit`
   * of each ranking are fused and cut, and the total is what the words found plus what only the meaning
   * found so far.
   */
  const results = async ({ offset = 0, ...request }: ModalSearchRequest): Promise<SearchResults> => {
    const limit = request.limit ?? 20;
    const partial = index.searchPartial();
    const chosen = request.mode ?? (settings.get().enabled ? 'hybrid' : 'lexical');
    if (chosen === 'lexical') {
      return { ...(await index.searchPage({ ...request, offset })), lexicalOnly: null, partial };
    }
    let lexicalTotal = 0;
    const { hits, lexicalOnly } = await searchWith({ ...request, limit: offset + limit }, async (lexical) => {
      const page = await index.searchPage(lexical);
      lexicalTotal = page.total;
      return page.hits;
    });
    const byMeaningOnly = hits.filter((hit) => hit.ranker === 'semantic').length;
    return {
      hits: hits.slice(offset, offset + limit),
      total: Math.max(lexicalTotal + byMeaningOnly, hits.length),
      lexicalOnly,
      partial,
    };
  };
  const related = async ({ path, limit }: { path: string; limit?: number }): Promise<RelatedNotes> => {
    const byMeaning: SemanticResult<SimilarNote[]> = settings.get().enabled
      ? service.similarNotes(path, similarAsked)
      : { ok: false, unavailable: { code: 'off', message: 'no embedding model is configured' } };
    const pathOf = (note: { path: string }) => note.path;
    const similar: SimilarReason[] = byMeaning.ok
      ? besideSameNames(path, byMeaning.value, pathOf, similarLimit).map((note) => ({
          path: note.path,
          reason: `similar: ${note.similarity.toFixed(2)}`,
          similarity: note.similarity,
        }))
      : besideSameNames(path, await index.similarByWords(path, similarAsked), pathOf, similarLimit, (notes) =>
          closeToBest(notes, (note) => note.score, wordsNearBest),
        ).map((note) => ({
          path: note.path,
          reason: `similar words: ${note.words.join(', ')}`,
          similarity: null,
        }));
    return {
      notes: relatedNotes(path, index, similar, limit ?? 20),
      semantic: byMeaning.ok ? null : byMeaning.unavailable,
    };
  };
  return {
    search,
    related,
    handlers: {
      'embeddings:status': async (): Promise<EmbeddingStatus> => service.status(),
      'embeddings:run': async (): Promise<EmbeddingReport> => service.run(),
      'embeddings:cancel': async (): Promise<null> => {
        service.cancel();
        return null;
      },
      /** Saves the settings once their key may go to their server; a new model drops the old vectors. */
      'embeddings:configure': async (
        { confirmKey, ...next }: EmbeddingSettingsRequest,
        caller?: Caller,
      ): Promise<EmbeddingStatus> => {
        keys.admit(asModelSettings(next), caller, confirmKey === true);
        settings.set(next);
        background.restart();
        return service.status();
      },
      'search:notes': async (request: ModalSearchRequest): Promise<SearchHit[]> =>
        (await search(request)).hits,
      'search:results': results,
      'notes:related': related,
    },
  };
}
