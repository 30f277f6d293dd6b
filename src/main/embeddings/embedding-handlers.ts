import type { Caller, SearchMode } from '../../shared/contract';
import type {
  EmbeddingReport,
  EmbeddingSettingsRequest,
  EmbeddingStatus,
  HybridSearchResult,
  RelatedNotes,
  SemanticResult,
  SimilarNote,
} from '../../shared/embedding-domain';
import type { SearchRequest, SearchHit, SimilarByWords } from '../../shared/index-domain';
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
  const hybrid = (request: SearchRequest): Promise<HybridSearchResult> =>
    hybridSearch(request, {
      lexical: (lexical) => index.search(lexical),
      semantic: (query, limit, filter) => service.semanticSearch(query, limit, filter),
    });
  /** Search in a mode; without usable embeddings, lexical (the status says why). */
  const search = async ({ mode, ...request }: ModalSearchRequest): Promise<HybridSearchResult> => {
    const chosen = mode ?? (settings.get().enabled ? 'hybrid' : 'lexical');
    if (chosen === 'lexical') return { hits: await index.search(request), lexicalOnly: null };
    if (chosen === 'hybrid') return hybrid(request);
    const semantic = await service
      .semanticSearch(request.query, request.limit ?? 20, { folder: request.folder, tag: request.tag })
      .catch((error: Error) => ({
        ok: false as const,
        unavailable: { code: 'failed' as const, message: error.message },
      }));
    if (!semantic.ok) return { hits: await index.search(request), lexicalOnly: semantic.unavailable };
    return { hits: semantic.value.map(semanticSearchHit), lexicalOnly: null };
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
      'notes:related': related,
    },
  };
}
