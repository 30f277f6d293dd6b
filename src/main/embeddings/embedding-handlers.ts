import type {
  EmbeddingReport,
  EmbeddingSettingsRequest,
  EmbeddingStatus,
  HybridSearchResult,
  RelatedNote,
  SemanticUnavailable,
} from '../../shared/embedding-domain';
import type { SearchRequest, SearchHit } from '../../shared/index-domain';
import type { ModelSettings } from '../../shared/chat-domain';
import { asModelSettings } from '../llm/embedding-model';
import type { BackgroundEmbeddings } from './background-embeddings';
import type { EmbeddingService } from './embedding-service';
import type { EmbeddingSettingsStore } from './embedding-settings';
import { hybridSearch } from './hybrid-search';
import { relatedNotes, type RelatedSources } from './related-notes';

export interface EmbeddingHandlersOptions {
  service: EmbeddingService;
  settings: EmbeddingSettingsStore;
  background: BackgroundEmbeddings;
  /** The API keys (ApiKeys): a key from the environment goes only to a server the user confirmed. */
  keys: { admit(settings: ModelSettings, confirmKey?: boolean): void };
  index: RelatedSources & { search(request: SearchRequest): Promise<SearchHit[]> };
}

/**
 * The contract's handlers for embeddings, semantic and hybrid search, and related notes; each is parse
 * (done by the host) → one call → return.
 */
export function embeddingHandlers({ service, settings, background, keys, index }: EmbeddingHandlersOptions) {
  const search = (request: SearchRequest): Promise<HybridSearchResult> =>
    hybridSearch(request, {
      lexical: (lexical) => index.search(lexical),
      semantic: (query, limit, filter) => service.semanticSearch(query, limit, filter),
    });
  return {
    'embeddings:status': async (): Promise<EmbeddingStatus> => service.status(),
    'embeddings:run': async (): Promise<EmbeddingReport> => service.run(),
    'embeddings:cancel': async (): Promise<null> => {
      service.cancel();
      return null;
    },
    /** Saves the settings once their key may go to their server; a new model drops the old vectors. */
    'embeddings:configure': async ({
      confirmKey,
      ...next
    }: EmbeddingSettingsRequest): Promise<EmbeddingStatus> => {
      keys.admit(asModelSettings(next), confirmKey === true);
      settings.set(next);
      background.restart();
      return service.status();
    },
    /** `search:notes` with `mode: 'hybrid'`: the fused hits (the reason for lexical only is in the status). */
    'search:notes': async (
      request: SearchRequest & { mode?: 'lexical' | 'hybrid' },
    ): Promise<SearchHit[]> => {
      const { mode, ...rest } = request;
      return mode === 'hybrid' ? (await search(rest)).hits : index.search(rest);
    },
    'search:hybrid': async (request: SearchRequest): Promise<HybridSearchResult> => search(request),
    'notes:related': async ({
      path,
      limit,
    }: {
      path: string;
      limit?: number;
    }): Promise<{ notes: RelatedNote[]; semantic: SemanticUnavailable | null }> => {
      const similar = settings.get().enabled ? service.similarNotes(path, limit ?? 10) : null;
      return relatedNotes(path, index, similar, limit ?? 20);
    },
  };
}
