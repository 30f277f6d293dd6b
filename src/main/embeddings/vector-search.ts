import type { SemanticHit } from '../../shared/embedding-domain';
import { fastExtractNote } from '../index/fast-extract';
import type { EmbeddingModel } from '../llm/embedding-model';
import type { ChunkStore } from './chunk-store';
import { VectorMatrix, type NoteMatch } from './vector-matrix';
import { normalized } from './vectors';

export interface VectorSearchOptions {
  /** While vectors are being written, a matrix this young is used rather than loaded again (default 5 s). */
  staleForMs?: number;
  /** The matrix is let go after this long without a search (default 5 minutes). */
  releaseAfterMs?: number;
}

const snippetCharacters = 240;
/** Query vectors kept: typing a query again, or a search repeated as the results reload, costs no call. */
const queryCacheSize = 64;
const neverAborted = new AbortController().signal;

/**
 * Nearest notes by their passages' vectors, from a matrix of every vector loaded on the first search
 * and kept while searches come. Writes mark it out of date; during a run it is loaded again at most
 * every `staleForMs`.
 */
export class VectorSearch {
  private loaded: { store: ChunkStore; matrix: VectorMatrix; version: number; at: number } | null = null;
  private version = 0;
  private releaseTimer: NodeJS.Timeout | null = null;
  private readonly queries = new Map<string, Float32Array>();

  constructor(private readonly options: VectorSearchOptions = {}) {}

  /** The stored passages or vectors changed. */
  invalidate(): void {
    this.version++;
  }

  /** The matrix of `store`'s vectors of length `dimensions`; `writing` accepts one a little out of date. */
  matrix(store: ChunkStore, dimensions: number, writing: boolean): VectorMatrix {
    const loaded = this.loaded;
    const fresh =
      loaded !== null &&
      loaded.store === store &&
      loaded.matrix.dimensions === dimensions &&
      (loaded.version === this.version ||
        (writing && performance.now() - loaded.at < (this.options.staleForMs ?? 5_000)));
    this.keepFor();
    if (fresh) return loaded.matrix;
    // Let the old matrix go before the new one is filled.
    this.loaded = null;
    const version = this.version;
    const matrix = new VectorMatrix(store.vectorCount(), store.vectors(), dimensions, store);
    this.loaded = { store, matrix, version, at: performance.now() };
    return matrix;
  }

  /**
   * The query's vector (of unit length) from `model`, asked for once per model and query while the
   * stored vectors keep their length.
   */
  async queryVector(model: EmbeddingModel, query: string, dimensions: number): Promise<Float32Array> {
    const key = `${model.identity}\n${query}`;
    const cached = this.queries.get(key);
    if (cached?.length === dimensions) {
      // Most recently used last: the first one is the one to let go.
      this.queries.delete(key);
      this.queries.set(key, cached);
      return cached;
    }
    const [vector] = await model.embed([query], 'query', { signal: neverAborted });
    const unit = normalized(vector ?? []);
    this.queries.set(key, unit);
    if (this.queries.size > queryCacheSize) this.queries.delete(this.queries.keys().next().value!);
    return unit;
  }

  /** The matched notes as hits, each with its best passage as the snippet. */
  hits(store: ChunkStore, matches: NoteMatch[]): SemanticHit[] {
    return this.passages(store, matches).map(withSnippet);
  }

  /** The matched notes with their best passages, before the snippets are made (see FoundPassage). */
  passages(store: ChunkStore, matches: NoteMatch[]): FoundPassage[] {
    const chunks = store.chunks(matches.map((match) => match.chunkId));
    return matches.flatMap((match) => {
      const chunk = chunks.get(match.chunkId);
      // A note deleted since the matrix was loaded.
      if (!chunk) return [];
      return [
        {
          path: chunk.path,
          title: chunk.title,
          similarity: Math.round(match.similarity * 1000) / 1000,
          headingPath: chunk.headingPath,
          passage: chunk.text,
        },
      ];
    });
  }

  release(): void {
    this.loaded = null;
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
  }

  private keepFor(): void {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = setTimeout(() => this.release(), this.options.releaseAfterMs ?? 300_000);
    this.releaseTimer.unref();
  }
}

/**
 * A note found by meaning with its best passage as stored. Its snippet is a Markdown parse of the passage:
 * hybrid search makes it only for the hits it shows that the words did not find (a note both find shows
 * the lexical snippet).
 */
export interface FoundPassage extends Omit<SemanticHit, 'snippet'> {
  passage: string;
}

/** The hit with its passage made a snippet. */
export function withSnippet({ passage, ...hit }: FoundPassage): SemanticHit {
  return { ...hit, snippet: snippetOf(passage) };
}

/**
 * The passage as plain text on one line (as word hits show theirs), cut at a word near 240 characters.
 * The text is the index's own (fastExtractNote, held to the remark extractor's by a differential test):
 * with remark the snippets were 40% of a hybrid search's time (a CPU profile of 100 searches on the 10k
 * prose vault).
 */
function snippetOf(passage: string): string {
  const line = fastExtractNote(passage, '').text.replace(/\s+/g, ' ').trim();
  if (line.length <= snippetCharacters) return line;
  const cut = line.lastIndexOf(' ', snippetCharacters);
  return `${line.slice(0, cut > snippetCharacters / 2 ? cut : snippetCharacters)}…`;
}
