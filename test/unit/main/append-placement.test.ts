import { describe, expect, it } from 'vitest';
import { placeAppend } from '../../../src/main/vault/append-placement';

const place = (note: string | Buffer, content: string, heading: string | null = null) =>
  placeAppend(typeof note === 'string' ? Buffer.from(note) : note, 'Note.md', content, heading);
const text = (note: string, content: string, heading: string | null = null) =>
  place(note, content, heading).bytes.toString('utf8');

describe('placeAppend', () => {
  it('adds at the end of the note after a blank line, ending the last line first if needed', () => {
    expect(text('# A\n\nLast.\n', 'New.')).toBe('# A\n\nLast.\n\nNew.\n');
    expect(text('# A\n\nLast.', 'New.')).toBe('# A\n\nLast.\n\nNew.\n');
    expect(text('# A\n\nLast.\n\n', 'New.')).toBe('# A\n\nLast.\n\nNew.\n');
    expect(text('', 'New.')).toBe('New.\n');
  });

  it("adds at the end of a heading's section, past its subsections, before the next heading", () => {
    const note = '# T\n\n## A\n\na\n\n### A1\n\na1\n\n## B\n\nb\n';
    const placed = place(note, '- more', 'A');
    expect(placed.bytes.toString()).toBe('# T\n\n## A\n\na\n\n### A1\n\na1\n\n- more\n\n## B\n\nb\n');
    expect(placed).toMatchObject({
      heading: 'A',
      added: ['', '- more'],
      line: 10,
      before: ['### A1', '', 'a1'],
      after: [''],
    });
  });

  it('puts a blank line before a heading that follows at once, and matches headings as links do', () => {
    expect(text('## A\ntext\n## B\n', 'x', '## a')).toBe('## A\ntext\n\nx\n\n## B\n');
    expect(text('# T\n## Empty\n## Next\n', 'x', 'T#Empty')).toBe('# T\n## Empty\n\nx\n\n## Next\n');
  });

  it('does not take a # line inside a code fence for a heading', () => {
    const note = '## A\n\n```sh\n# not a heading\n```\n\n## B\n';
    expect(text(note, 'x', 'A')).toBe('## A\n\n```sh\n# not a heading\n```\n\nx\n\n## B\n');
    expect(() => place(note, 'x', 'not a heading')).toThrow(/No heading/);
  });

  it('keeps every other byte: a BOM, CRLF line ends, bytes that are not UTF-8', () => {
    const latin1 = Buffer.concat([
      Buffer.from('\uFEFF# Caf'),
      Buffer.from([0xe9]),
      Buffer.from('\r\n\r\n# B\r\nb\r\n'),
    ]);
    const cut = latin1.indexOf('\r\n') + 2;
    expect(place(latin1, 'x', 'Caf\uFFFD').bytes).toEqual(
      Buffer.concat([latin1.subarray(0, cut), Buffer.from('\r\nx\r\n'), latin1.subarray(cut)]),
    );
  });

  it('refuses empty content, a block id and a heading the note does not have', () => {
    expect(() => place('# A\n', '\n\n')).toThrow(/nothing to append/);
    expect(() => place('# A\n', 'x', '^block')).toThrow(/not a heading/);
    expect(() => place('# A\n', 'x', 'Missing')).toThrow(/No heading “Missing”/);
  });
});
