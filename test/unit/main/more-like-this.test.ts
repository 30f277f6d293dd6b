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
        body: 'The summary of the oldest messages is also kept. Messages, messages and 2024 and an ox.',
      },
      null,
    );
    expect(query.endsWith(' ')).toBe(true);
    const words = query.trim().split(' ');
    expect(words.slice(0, 3)).toEqual(['Compaction', 'messages', 'Summaries']);
    expect(words).not.toContain('the');
    // Stop words of English beyond the few search leaves out.
    expect(words).not.toContain('also');
    expect(words).not.toContain('oldest');
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

  it('leaves out the stop words of the languages the segmenter cuts: Chinese, Japanese, Thai', () => {
    const query = (body: string) => likeThisQuery({ title: '', headings: '', body }, null).trim().split(' ');
    const chinese = query('你可以使用嵌入文件。可以使用图片，也可以使用音频。嵌入文件很方便。');
    expect(chinese).toEqual(expect.arrayContaining(['嵌入', '文件']));
    expect(chinese).not.toContain('可以');
    expect(chinese).not.toContain('使用');
    // Joined by the segmenter out of two stop words (也 + 可以).
    expect(chinese).not.toContain('也可以');
    const japanese = query('ノートをリンクする方法。ノートにリンクを貼ることができます。');
    expect(japanese).toEqual(expect.arrayContaining(['ノート', 'リンク']));
    for (const stop of ['する', 'できる', 'こと', 'ます']) expect(japanese).not.toContain(stop);
    // Thai's list is written in NFKC: ทำ typed with the precomposed sara am is found all the same.
    const thai = query('การทำแท็ก ทำแท็ก แท็กและโฟลเดอร์ ของโน้ต');
    expect(thai).toEqual(expect.arrayContaining(['แท็ก', 'โฟลเดอร์']));
    for (const stop of ['การ', 'ทำ', 'และ', 'ของ']) expect(thai).not.toContain(stop);
  });

  it('leaves out the stop words of the Latin-script language a note is written in, and only those', () => {
    const query = (body: string) => likeThisQuery({ title: '', headings: '', body }, null).trim().split(' ');
    const spanish = query(
      'Además, los archivos incrustados también se pueden enlazar. Archivos incrustados.',
    );
    expect(spanish).toEqual(expect.arrayContaining(['archivos', 'incrustados']));
    for (const stop of ['además', 'también', 'pueden', 'los']) expect(spanish).not.toContain(stop);
    // Danish lists "tag" and Dutch "word": in an English note they are words like any other.
    const english = query('Every tag is also a word you can search. The tag links notes; a word too.');
    expect(english).toEqual(expect.arrayContaining(['tag', 'word']));
    for (const stop of ['also', 'every', 'can']) expect(english).not.toContain(stop);
  });

  it('leaves out a word the segmenter may have cut out of a longer word it does not know', () => {
    // 链接到 "link to" is cut 链|接到 ("receive"); 到 "to" alone is a word, so 连接|到 stands.
    const words = likeThisQuery(
      { title: '', headings: '', body: '将文件链接到笔记。可以连接到服务器。笔记和文件。' },
      null,
    )
      .trim()
      .split(' ');
    expect(words).not.toContain('接到');
    expect(words).toEqual(expect.arrayContaining(['笔记', '文件', '连接']));
  });

  it('takes the words by weight times idf, leaving out those no other note holds and those a fifth of the notes hold', () => {
    const columns = {
      title: 'Compost',
      headings: 'Greens and browns',
      body: 'Greens, browns, water and bokashi. Fork the heap; water it. Notes on water.',
    };
    const counts = countsOf(1000, {
      compost: 40,
      green: 60,
      brown: 60,
      water: 400,
      bokashi: 1,
      fork: 150,
      heap: 12,
      note: 900,
    });
    const words = likeThisQuery(columns, counts).trim().split(' ');
    // Title and headings first (weight), the rarer heap before fork (idf); water and note are in too
    // many notes, bokashi in this one only.
    expect(words).toEqual(['Compost', 'Greens', 'browns', 'heap', 'Fork']);
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
