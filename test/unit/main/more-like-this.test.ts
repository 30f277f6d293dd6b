import { describe, expect, it } from 'vitest';
import { likeThisQuery, similarByWords } from '../../../src/main/index/more-like-this';
import type { TermCounts } from '../../../src/main/index/term-statistics';

/** Counts as an index of `notes` notes would give them; a word's term is its lower case without an `s`. */
function countsOf(notes: number, holding: Record<string, number>): TermCounts {
  return {
    notes,
    termsOf: (words) => words.map((word) => word.toLowerCase().replace(/s$/, '')),
    notesHolding: (terms) => new Map(terms.map((term) => [term, holding[term] ?? 0])),
  };
}

describe('more like this', () => {
  it("takes a note's telling words, title and headings first, without stop words, numbers or short words", () => {
    const query = likeThisQuery(
      {
        title: 'Compaction',
        headings: 'Summaries',
        body: 'The summary of the oldest turns is kept. Turns, turns and 2024 and an ox.',
      },
      null,
    );
    expect(query.endsWith(' ')).toBe(true);
    const words = query.trim().split(' ');
    expect(words.slice(0, 3)).toEqual(['Compaction', 'turns', 'Summaries']);
    expect(words).not.toContain('the');
    expect(words).not.toContain('2024');
    expect(words).not.toContain('ox');
    expect(likeThisQuery({ title: '', headings: '', body: 'a an the 42' }, null)).toBe('');
    // Tags are a reason of their own; "doesn" of "doesn't" is no word.
    expect(likeThisQuery({ title: '', headings: '', body: "#garden #garden compost doesn't" }, null)).toBe(
      'compost ',
    );
  });

  it('keeps the words of scripts written without spaces, and their marks', () => {
    const words = likeThisQuery({ title: '上下文压缩', headings: '', body: 'ลิงก์ ลิงก์' }, null)
      .trim()
      .split(' ');
    expect(words).toContain('ลิงก์');
    expect(words.some((word) => /^[\u4e00-\u9fff]{2,}$/u.test(word))).toBe(true);
  });

  it('takes the words by weight times idf, leaving out those no other note holds and those a fifth of the notes hold', () => {
    const columns = {
      title: 'Compost',
      headings: 'Greens and browns',
      body: 'Greens, browns, water and bokashi. Turn the heap; water it. Notes on water.',
    };
    const counts = countsOf(1000, {
      compost: 40,
      green: 60,
      brown: 60,
      water: 400,
      bokashi: 1,
      turn: 150,
      heap: 12,
      note: 900,
    });
    const words = likeThisQuery(columns, counts).trim().split(' ');
    // Title and headings first (weight), the rarer heap before turn (idf); water and note are in too
    // many notes, bokashi in this one only.
    expect(words).toEqual(['Compost', 'Greens', 'browns', 'heap', 'Turn']);
  });

  it('counts the forms of a word as one term, named by the form used most', () => {
    const words = likeThisQuery(
      { title: '', headings: '', body: 'Seeds, seeds and a seed; the sowing.' },
      countsOf(100, { seed: 5, sowing: 5 }),
    );
    expect(words).toBe('Seeds sowing ');
  });

  it('keeps the words every note of a small vault shares', () => {
    const counts = countsOf(5, { context: 3, window: 5 });
    expect(likeThisQuery({ title: '', headings: '', body: 'context window' }, counts)).toBe(
      'context window ',
    );
  });

  it('leaves the note itself out and names the shared words its snippet marks', () => {
    const hits = [
      {
        path: 'A.md',
        title: 'A',
        score: 9,
        snippet: '\u0002compaction\u0003',
        ranker: 'some-words' as const,
      },
      {
        path: 'B.md',
        title: 'B',
        score: 5,
        snippet: 'the \u0002Budget\u0003 and the \u0002budget\u0003, \u0002window\u0003 \u0002of\u0003',
        ranker: 'some-words' as const,
      },
    ];
    expect(similarByWords('A.md', hits, 5)).toEqual([
      { path: 'B.md', title: 'B', score: 5, words: ['budget', 'window'] },
    ]);
  });
});
