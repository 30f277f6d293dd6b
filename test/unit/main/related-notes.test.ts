import { describe, expect, it } from 'vitest';
import {
  besideSameNames,
  relatedNotes,
  type RelatedSources,
} from '../../../src/main/embeddings/related-notes';
import { sameNameLabel } from '../../../src/shared/embedding-domain';
import type { ResolvedLink } from '../../../src/shared/index-domain';

const link = (source: string, resolved: string | null, status: ResolvedLink['status'] = 'resolved') =>
  ({ source, resolved, status }) as ResolvedLink;

const titles: Record<string, string> = {
  'A.md': 'A',
  'Linked.md': 'Linked',
  'Backlink.md': 'Backlink',
  'Tagged.md': 'Tagged',
  'Similar.md': 'Similar',
};

const index: RelatedSources = {
  outgoing: () => [link('A.md', 'Linked.md'), link('A.md', 'Gone.md', 'broken'), link('A.md', 'A.md')],
  backlinks: () => [link('Backlink.md', 'A.md'), link('Similar.md', 'A.md')],
  sharingTags: () => [{ path: 'Tagged.md', title: 'Tagged', tags: ['method', 'zk'] }],
  note: (path) => (titles[path] ? { path, title: titles[path]!, lead: '', wordCount: 1, tags: [] } : null),
};

const similar = (path: string, similarity: number) => ({
  path,
  reason: `similar: ${similarity.toFixed(2)}`,
  similarity,
});

describe('related notes', () => {
  it('gives every reason a note is related, and marks similar notes not linked as missing links', () => {
    const notes = relatedNotes('A.md', index, [similar('Tagged.md', 0.82), similar('Similar.md', 0.61)]);
    expect(notes).toEqual([
      {
        path: 'Tagged.md',
        title: 'Tagged',
        reasons: ['shares #method, #zk', 'similar: 0.82'],
        similarity: 0.82,
        missingLink: true,
        sameNameIn: null,
      },
      {
        path: 'Similar.md',
        title: 'Similar',
        reasons: ['links here', 'similar: 0.61'],
        similarity: 0.61,
        missingLink: false,
        sameNameIn: null,
      },
      {
        path: 'Backlink.md',
        title: 'Backlink',
        reasons: ['links here'],
        similarity: null,
        missingLink: false,
        sameNameIn: null,
      },
      {
        path: 'Linked.md',
        title: 'Linked',
        reasons: ['linked from here'],
        similarity: null,
        missingLink: false,
        sameNameIn: null,
      },
    ]);
  });

  it('without similar notes still gives links and tags, and keeps notes similar by words in their order', () => {
    const notes = relatedNotes('A.md', index, []);
    expect(notes.map((note) => note.path)).toEqual(['Backlink.md', 'Linked.md', 'Similar.md', 'Tagged.md']);
    expect(relatedNotes('A.md', index, [], 2)).toHaveLength(2);
    const byWords = (path: string) => ({ path, reason: 'similar words: zettel', similarity: null });
    const found = relatedNotes('A.md', { ...index, sharingTags: () => [], backlinks: () => [] }, [
      byWords('Tagged.md'),
      byWords('Backlink.md'),
    ]);
    expect(found.map((note) => [note.path, note.missingLink])).toEqual([
      ['Tagged.md', true],
      ['Backlink.md', true],
      ['Linked.md', false],
    ]);
  });

  it('marks a note with the same file name in another folder, and never offers it as a missing link', () => {
    const translations: RelatedSources = {
      outgoing: () => [],
      backlinks: () => [],
      sharingTags: () => [],
      note: (path) => ({ path, title: 'Embed files', lead: '', wordCount: 1, tags: [] }),
    };
    const byWords = (path: string) => ({ path, reason: 'similar words: embed', similarity: null });
    const notes = relatedNotes('en/Help/Embed files.md', translations, [
      byWords('ko/Embed files.md'),
      byWords('en/Help/Link to files.md'),
      byWords('Embed files.md'),
      byWords('zh/帮助/embed FILES.md'),
    ]);
    expect(notes.map(({ path, missingLink, sameNameIn }) => [path, missingLink, sameNameIn])).toEqual([
      // The one real missing link comes first; the notes of the same name keep their order after it.
      ['en/Help/Link to files.md', true, null],
      ['ko/Embed files.md', false, 'ko'],
      ['Embed files.md', false, ''],
      // Names compare as links do: without case, in one Unicode form.
      ['zh/帮助/embed FILES.md', false, 'zh/帮助'],
    ]);
    expect(sameNameLabel('ko')).toBe('same name, in ko/');
    expect(sameNameLabel('')).toBe('same name, at the top of the vault');
  });

  it('keeps the places of similar notes for other names: translations neither fill them nor raise the bar', () => {
    const languages = ['de', 'es', 'fr', 'it', 'ja', 'ko', 'pt', 'ru', 'zh', 'uk'];
    const found = [
      ...languages.map((language) => ({ path: `${language}/Canvas.md`, score: 10 })),
      { path: 'en/Plugins/Graph view.md', score: 4 },
      { path: 'en/Plugins/Whiteboard.md', score: 3 },
      { path: 'en/Daily notes.md', score: 1 },
    ];
    const closeToHalf = <Item extends { score: number }>(items: readonly Item[]) => {
      const best = Math.max(0, ...items.map((item) => item.score));
      return items.filter((item) => item.score >= best / 2);
    };
    const kept = besideSameNames('en/Plugins/Canvas.md', found, (item) => item.path, 8, closeToHalf);
    expect(kept.map((item) => item.path)).toEqual([
      'en/Plugins/Graph view.md',
      'en/Plugins/Whiteboard.md',
      ...languages.slice(0, 8).map((language) => `${language}/Canvas.md`),
    ]);
  });
});
