import { lexicalScores } from './lexical-similarity';
import { dot } from '../../embeddings/vectors';
import type { TextVectors } from '../../embeddings/text-vectors';
import { ModelError } from '../../llm/llm-types';

/** How relevant passages are to a question, and how that was judged. */
export interface Relevance {
  scores: number[];
  by: 'meaning' | 'words';
  /**
   * Below this a passage is not about the question. Cosine similarity of unrelated texts is far from 0
   * with embedding models (nomic-embed-text puts them at 0.3–0.5), so the floor depends on the measure.
   */
  minimum: number;
  /** Set when meaning was wanted but the embedding server failed: the question was matched by words. */
  notice: string | null;
}

const wordsMinimum = 0.1;
const meaningMinimum = 0.5;

/**
 * Scores passages (rule descriptions, tool descriptions, a pinned note's sections) against a question:
 * by meaning when an embedding model is configured, else by words (BM25, see lexical-similarity). An
 * embedding failure falls back to words and says so; it never fails the answer.
 */
export async function scoreRelevance(
  vectors: TextVectors | null,
  question: string,
  passages: readonly string[],
  signal: AbortSignal,
): Promise<Relevance> {
  if (passages.length === 0) return { scores: [], by: 'words', minimum: wordsMinimum, notice: null };
  let notice: string | null = null;
  if (vectors?.available()) {
    try {
      const [query] = (await vectors.of([question], 'query', signal)) ?? [];
      const documents = await vectors.of(passages, 'document', signal);
      if (query && documents) {
        const scores = documents.map((vector) => (vector.length === query.length ? dot(query, vector) : 0));
        return { scores, by: 'meaning', minimum: meaningMinimum, notice: null };
      }
    } catch (error) {
      signal.throwIfAborted();
      notice = `Rules, tools and pinned passages were matched to the message by words. ${embeddingFailure(error)}`;
    }
  }
  return { scores: lexicalScores(question, passages), by: 'words', minimum: wordsMinimum, notice };
}

/** Why the embedding server could not judge, as a sentence of its own; one that is down is said plainly. */
function embeddingFailure(error: unknown): string {
  if (error instanceof ModelError && error.kind === 'unreachable')
    return 'The embedding server is not reachable.';
  if (error instanceof ModelError) return error.message;
  return `The embedding server failed: ${error instanceof Error ? error.message : String(error)}`;
}
