import { describe, expect, it } from 'vitest';
import { chunkInput, chunkNote } from '../../../src/main/embeddings/chunk-note';
import { countTokens } from '../../../src/main/request/count/token-count';

const words = (count: number, word = 'card') =>
  Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');

describe('cutting a note into passages', () => {
  it('makes one passage per section, under its heading path, without frontmatter or the heading line', () => {
    const note = [
      '---',
      'tags: [method]',
      '---',
      'Before any heading.',
      '',
      '# Zettelkasten method',
      '',
      'Small linked cards.',
      '',
      '## Origins',
      '',
      'Luhmann kept cards.',
      '',
      '### Drawers',
      '',
      'Wooden drawers.',
      '',
      '## Links',
      '',
      '- one',
      '- two',
    ].join('\n');
    const { chunks, truncated } = chunkNote('Zettelkasten method', note);
    expect(truncated).toBe(false);
    expect(chunks.map(({ headingPath, text }) => ({ headingPath, text }))).toEqual([
      { headingPath: [], text: 'Before any heading.' },
      { headingPath: ['Zettelkasten method'], text: 'Small linked cards.' },
      { headingPath: ['Zettelkasten method', 'Origins'], text: 'Luhmann kept cards.' },
      { headingPath: ['Zettelkasten method', 'Origins', 'Drawers'], text: 'Wooden drawers.' },
      { headingPath: ['Zettelkasten method', 'Links'], text: '- one\n- two' },
    ]);
  });

  it('prefixes what is embedded with the title and heading path, the title once', () => {
    expect(chunkInput('Method', ['Method', 'Origins'], 'Text.')).toBe('Method > Origins\n\nText.');
    expect(chunkInput('Method', ['Origins'], 'Text.')).toBe('Method > Origins\n\nText.');
    expect(chunkInput('Method', [], 'Text.')).toBe('Method\n\nText.');
  });

  it('gives equal passages equal hashes, and a passage under another title another hash', () => {
    const [a] = chunkNote('A', '# H\n\nSame text.').chunks;
    const [b] = chunkNote('A', 'Other.\n\n# H\n\nSame text.').chunks.slice(1);
    const [c] = chunkNote('C', '# H\n\nSame text.').chunks;
    expect(a?.hash).toBe(b?.hash);
    expect(a?.hash).not.toBe(c?.hash);
    expect(a?.hash).toMatch(/^[0-9a-f]{40}$/);
  });

  it('does not take a # inside a code fence for a heading, and leaves out sections with no text', () => {
    const note = '# Code\n\n```sh\n# not a heading\necho hi\n```\n\n## Empty\n\n## Filled\n\nText.';
    const { chunks } = chunkNote('Code', note);
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([['Code'], ['Code', 'Filled']]);
    expect(chunks[0]?.text).toBe('```sh\n# not a heading\necho hi\n```');
  });

  it('names a heading with a wikilink by its label', () => {
    const { chunks } = chunkNote('N', '## See [[Other note|the other]]\n\nText.');
    expect(chunks[0]?.headingPath).toEqual(['See the other']);
  });

  it('cuts a section past 400 tokens between paragraphs, each part at most 400 tokens', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => words(60, `p${i}w`));
    const { chunks } = chunkNote('Long', `# Long\n\n${paragraphs.join('\n\n')}`);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(400);
      expect(chunk.headingPath).toEqual(['Long']);
    }
    // Nothing lost, nothing repeated, paragraphs whole.
    expect(chunks.map((chunk) => chunk.text).join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('cuts one long paragraph between lines, and one long line between words', () => {
    const lines = Array.from({ length: 30 }, (_, i) => words(40, `l${i}w`));
    const { chunks: byLine } = chunkNote('Lines', lines.join('\n'));
    expect(byLine.length).toBeGreaterThan(1);
    for (const chunk of byLine) expect(countTokens(chunk.text)).toBeLessThanOrEqual(400);
    expect(byLine.map((chunk) => chunk.text).join('\n')).toBe(lines.join('\n'));

    const line = words(2000);
    const { chunks: byWord } = chunkNote('Line', line);
    expect(byWord.length).toBeGreaterThan(4);
    for (const chunk of byWord) expect(countTokens(chunk.text)).toBeLessThanOrEqual(400);
    expect(byWord.map((chunk) => chunk.text).join(' ')).toBe(line);
  });

  it('cuts a run without spaces anywhere, never between the halves of an emoji', () => {
    const run = '😀'.repeat(5000);
    const { chunks } = chunkNote('Emoji', run);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.text).toMatch(/^(😀)+$/u);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(run);
  });

  it('keeps at most maxChunks passages of a 2 MB note, and says it was cut short', () => {
    const paragraph = `${words(300)}.`;
    const note = Array.from({ length: Math.ceil(2_000_000 / paragraph.length) }, () => paragraph).join(
      '\n\n',
    );
    expect(note.length).toBeGreaterThan(2_000_000);
    const { chunks, truncated } = chunkNote('Huge', note);
    expect(truncated).toBe(true);
    expect(chunks).toHaveLength(256);
    const small = chunkNote('Huge', note, { maxChunks: 3 });
    expect(small).toMatchObject({ truncated: true });
    expect(small.chunks).toHaveLength(3);
  });

  it('cuts a long run without spaces (an image as base64) without counting its tokens whole', () => {
    const base64 = Buffer.from(Array.from({ length: 900_000 }, (_, i) => (i * 7919) % 251)).toString(
      'base64',
    );
    const { chunks, truncated } = chunkNote('Image', `# Image\n\n![x](data:image/png;base64,${base64})`);
    expect(truncated).toBe(true);
    expect(chunks).toHaveLength(256);
    for (const chunk of chunks) expect(countTokens(chunk.text)).toBeLessThanOrEqual(400);
    expect(chunks[0]?.text.startsWith('![x](data:image/png;base64,')).toBe(true);
  });

  it('reads CRLF and a byte-order mark as plain lines', () => {
    const { chunks } = chunkNote('N', '\uFEFF# N\r\n\r\nFirst.\r\n\r\n## Two\r\n\r\nSecond.');
    expect(chunks.map(({ headingPath, text }) => [headingPath, text])).toEqual([
      [['N'], 'First.'],
      [['N', 'Two'], 'Second.'],
    ]);
  });
});
