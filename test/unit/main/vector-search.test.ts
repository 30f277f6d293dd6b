import { describe, expect, it } from 'vitest';
import type { ChunkStore, StoredChunk } from '../../../src/main/embeddings/chunk-store';
import { VectorSearch } from '../../../src/main/embeddings/vector-search';
import { extractNote } from '../../../src/shared/markdown/extract-note';

const passage =
  '**Atomic** notes hold _one_ idea each, see [[Zettelkasten method#^why-atomic]] and [[Links|the links]].\n\n' +
  '- `code` stays\n- so does [a link](https://example.com)';

/** A chunk store holding one passage, as far as `hits` reads one. */
function storeWith(text: string): ChunkStore {
  const chunk: StoredChunk = { id: 7, path: 'Atomic.md', title: 'Atomic', headingPath: [], text };
  return { chunks: () => new Map([[chunk.id, chunk]]) } as unknown as ChunkStore;
}

describe('semantic search hits', () => {
  it('show their passage as plain text, the same text a word hit shows for it', () => {
    const [hit] = new VectorSearch().hits(storeWith(passage), [
      { path: 'Atomic.md', chunkId: 7, similarity: 0.8 },
    ]);
    expect(hit?.snippet).toBe(
      // A link without its own words shows its target, as Obsidian writes it.
      'Atomic notes hold one idea each, see Zettelkasten method#^why-atomic and the links. code stays so does a link',
    );
    expect(hit?.snippet).toBe(extractNote(passage, 'Atomic.md').text.replace(/\s+/g, ' ').trim());
  });
});
