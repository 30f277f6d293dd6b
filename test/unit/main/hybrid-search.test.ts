import { describe, expect, it } from 'vitest';
import { hybridSearch } from '../../../src/main/embeddings/hybrid-search';
import type { FoundPassage } from '../../../src/main/embeddings/vector-search';
import type { SearchHit } from '../../../src/shared/index-domain';

const lexicalHit = (path: string, match: SearchHit['match']): SearchHit => ({
  path,
  title: path.replace(/\.md$/, ''),
  score: 1,
  snippet: '',
  ranker: 'all-words',
  match,
});
const semanticHit = (path: string, similarity: number, passage = ''): FoundPassage => ({
  path,
  title: path.replace(/\.md$/, ''),
  similarity,
  passage,
  headingPath: [],
});

describe('hybrid search', () => {
  it('keeps the note the query names first, however the meaning ranks it', async () => {
    // By meaning, the two Clipper notes are closest; the note titled as the query is not among them, and
    // fused by rank alone the Clipper note both find would come first.
    const { hits } = await hybridSearch(
      { query: 'obsidian cli', limit: 4 },
      {
        lexical: async () => [
          lexicalHit('Obsidian CLI.md', 'title'),
          lexicalHit('Terminal tips.md', 'whole'),
          lexicalHit('Web Clipper.md', 'prefix'),
        ],
        semantic: async () => ({
          ok: true,
          value: [
            semanticHit('Web Clipper.md', 0.9, 'Clipping **the page**'),
            semanticHit('Clipper templates.md', 0.8, '## Templates\n\nA [[Web Clipper|clipper]] *template*.'),
          ],
        }),
      },
    );
    expect(hits.map((hit) => hit.path)).toEqual([
      'Obsidian CLI.md',
      'Web Clipper.md',
      'Terminal tips.md',
      'Clipper templates.md',
    ]);
    // The note both find shows its words' snippet; the one found by meaning only, its passage as text.
    expect(hits[1]).toMatchObject({ snippet: '', ranker: 'all-words' });
    expect(hits[3]).toMatchObject({ snippet: 'Templates A clipper template.', ranker: 'semantic' });
  });
});
