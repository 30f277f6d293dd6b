import { describe, expect, it } from 'vitest';
import { likeThisQuery, similarByWords } from '../../../src/main/index/more-like-this';

describe('more like this', () => {
  it("takes a note's telling words, title and headings first, without stop words, numbers or short words", () => {
    const query = likeThisQuery({
      title: 'Compaction',
      headings: 'Summaries',
      body: 'The summary of the oldest turns is kept. Turns, turns and 2024 and an ox.',
    });
    expect(query.endsWith(' ')).toBe(true);
    const words = query.trim().split(' ');
    expect(words.slice(0, 3)).toEqual(['Compaction', 'turns', 'Summaries']);
    expect(words).not.toContain('the');
    expect(words).not.toContain('2024');
    expect(words).not.toContain('ox');
    expect(likeThisQuery({ title: '', headings: '', body: 'a an the 42' })).toBe('');
    // Tags are a reason of their own.
    expect(likeThisQuery({ title: '', headings: '', body: '#garden #garden compost' })).toBe('compost ');
  });

  it('keeps the words of scripts written without spaces, and their marks', () => {
    const words = likeThisQuery({ title: '上下文压缩', headings: '', body: 'ลิงก์ ลิงก์' }).trim().split(' ');
    expect(words).toContain('ลิงก์');
    expect(words.some((word) => /^[\u4e00-\u9fff]{2,}$/u.test(word))).toBe(true);
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
