import type { EmbeddingModel, EmbeddingPurpose } from '../llm/embedding-model';
import { normalized } from './vectors';

/** Vectors kept: the descriptions of rules and tools, and recent questions, are asked for again and again. */
const cacheSize = 2_000;

/**
 * Unit vectors of short texts that are not notes (a rule's description, a tool's, a question), from the
 * embedding model in force, each asked for once per model: choosing `agent` items costs one call for
 * the question after the first time.
 */
export class TextVectors {
  private readonly cache = new Map<string, Float32Array>();

  constructor(private readonly model: () => EmbeddingModel | null) {}

  /** Whether an embedding model is configured. */
  available(): boolean {
    return this.model() !== null;
  }

  /** The texts' vectors in order; null when embedding is off. Failures are the model's `ModelError`s. */
  async of(
    texts: readonly string[],
    purpose: EmbeddingPurpose,
    signal: AbortSignal,
  ): Promise<Float32Array[] | null> {
    const model = this.model();
    if (!model) return null;
    const key = (text: string) => `${model.identity}\n${purpose}\n${text}`;
    const missing = [...new Set(texts.filter((text) => !this.cache.has(key(text))))];
    if (missing.length > 0) {
      const vectors = await model.embed(missing, purpose, { signal, timeoutMs: 10_000 });
      missing.forEach((text, index) => this.remember(key(text), normalized(vectors[index] ?? [])));
    }
    return texts.map((text) => this.cache.get(key(text))!);
  }

  private remember(key: string, vector: Float32Array): void {
    this.cache.delete(key);
    this.cache.set(key, vector);
    if (this.cache.size > cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}
