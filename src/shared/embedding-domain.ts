import { z } from 'zod';
import type { SearchHit, SearchPartial } from './index-domain';

/**
 * The model that turns passages into vectors, which may be on another server than the chat model:
 * Ollama through its native `/api/embed` (e.g. `nomic-embed-text`), or any OpenAI-compatible
 * `/v1/embeddings` (OpenAI's `text-embedding-3-small`, LM Studio, llama.cpp, vLLM).
 */
export interface EmbeddingSettings {
  /** Off: nothing is embedded and search is lexical only. */
  enabled: boolean;
  provider: 'ollama' | 'openai-compatible';
  /** Ollama: the server root, e.g. `http://127.0.0.1:11434`; OpenAI-compatible: ending in `/v1`. */
  baseUrl: string;
  model: string;
  /** The environment variable holding the API key (CLI and browser host). */
  apiKeyEnv: string | null;
}

/** What `embeddings:configure` takes; `confirmKey` as for the chat model's settings. */
export const embeddingSettingsSchema = z
  .object({
    enabled: z.boolean(),
    provider: z.enum(['ollama', 'openai-compatible']),
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().trim().min(1, 'A model is required.').max(300),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Not an environment variable name.')
      .nullable(),
    confirmKey: z.boolean().optional(),
  })
  .strict();

export type EmbeddingSettingsRequest = z.infer<typeof embeddingSettingsSchema>;

/**
 * Where embedding the vault stands. `chunking` reads and cuts the notes that changed (`done`/`total`
 * count notes); `embedding` sends the passages that have no vector yet (they count passages).
 */
export interface EmbeddingProgress {
  state: 'off' | 'idle' | 'running' | 'paused' | 'cancelled' | 'error';
  phase: 'chunking' | 'embedding' | null;
  done: number;
  total: number;
  /** Why the last run stopped, in a sentence naming the server; null when it did not fail. */
  error: string | null;
}

export interface EmbeddingStatus extends EmbeddingProgress {
  settings: EmbeddingSettings;
  /** Passages of the open vault that have a vector, and those still waiting for one. */
  embedded: number;
  pending: number;
  /** The model and server the stored vectors come from, and their length. */
  vectorsFrom: string | null;
  dimensions: number | null;
  /** The latest thing the user should know: vectors dropped because the model changed, and so on. */
  notice: string | null;
  /** Why semantic search is not used right now ("lexical only, because …"), or null when it is. */
  unavailable: string | null;
}

/** The outcome of one embedding run. */
export interface EmbeddingReport {
  /** Notes read and cut into passages again because they changed. */
  notesChunked: number;
  /** Passages sent to the model (passages with the same text are sent once). */
  embedded: number;
  /** Passages whose vector was already known for their text (unchanged sections, renamed notes). */
  reused: number;
  /** Notes longer than the passages kept per note: their first passages only are embedded. */
  truncatedNotes: string[];
  cancelled: boolean;
  error: string | null;
  ms: number;
}

/** A note found by meaning: its closest passage and how close (cosine similarity, −1 to 1). */
export interface SemanticHit {
  path: string;
  title: string;
  similarity: number;
  /** The headings above the passage, outermost first. */
  headingPath: string[];
  /** The passage's text, trimmed to a snippet. */
  snippet: string;
}

/** A note close in meaning to another one. */
export interface SimilarNote {
  path: string;
  title: string;
  similarity: number;
  headingPath: string[];
  snippet: string;
}

/**
 * Why semantic search gave nothing: `off` (no model configured), `not-built` (nothing embedded yet),
 * `rebuilding` (the vectors belong to another model), `failed` (the query could not be embedded), `no-note`
 * (similarNotes: the note has no vectors). `message` completes "lexical only, because …".
 */
export interface SemanticUnavailable {
  code: 'off' | 'not-built' | 'rebuilding' | 'failed' | 'no-note';
  message: string;
}

export type SemanticResult<T> = { ok: true; value: T } | { ok: false; unavailable: SemanticUnavailable };

/** Hybrid search's answer: fused hits, or the lexical ones alone and why (`lexicalOnly`). */
export interface HybridSearchResult {
  hits: SearchHit[];
  lexicalOnly: SemanticUnavailable | null;
}

/**
 * A page of a search's hits in its mode (`lexicalOnly` as above), how many notes it found in all, and
 * whether the index it searched is whole.
 */
export interface SearchResults extends HybridSearchResult {
  total: number;
  partial: SearchPartial | null;
}

/** A note related to another one, with every reason ("links here", "shares #tag", "similar: 0.82"). */
export interface RelatedNote {
  path: string;
  title: string;
  reasons: string[];
  /** Cosine similarity of their passages (see similarNotes); null when not among the similar notes. */
  similarity: number | null;
  /** Similar, but neither links to the other: a link that may be missing. */
  missingLink: boolean;
  /**
   * The note's folder ('' at the top of the vault) when it has the same file name as the note it is
   * related to (a translation, a copy); null otherwise. Such a note is never a missing link.
   */
  sameNameIn: string | null;
}

/** How a note of the same name is marked: "same name, in ko/", "same name, at the top of the vault". */
export function sameNameLabel(folder: string): string {
  return folder === '' ? 'same name, at the top of the vault' : `same name, in ${folder}/`;
}

/** `notes:related`: the related notes, and why none are similar by meaning (null when they are). */
export interface RelatedNotes {
  notes: RelatedNote[];
  /** Why similarity is by words rather than meaning: embeddings are off, not built yet, failed… */
  semantic: SemanticUnavailable | null;
}
