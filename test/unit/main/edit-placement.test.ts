import { describe, expect, it } from 'vitest';
import { diffText } from '../../../src/shared/chat/diff-text';
import { placeEdit, type EditTarget } from '../../../src/main/vault/edit-placement';

const place = (note: string | Buffer, target: EditTarget, replacement: string) =>
  placeEdit(typeof note === 'string' ? Buffer.from(note) : note, 'Note.md', target, replacement);
const edited = (note: string, passage: string, replacement: string) =>
  place(note, { passage }, replacement).bytes.toString('utf8');

describe('placeEdit: a passage', () => {
  it('replaces exactly the passage and keeps every other byte', () => {
    const note =
      '---\ntags: [zk]\n---\n# Atomic notes\n\nOne idea per note, more or less.\n\nLinks matter.\n';
    expect(edited(note, 'more or less', 'always')).toBe(
      '---\ntags: [zk]\n---\n# Atomic notes\n\nOne idea per note, always.\n\nLinks matter.\n',
    );
  });

  it('matches a passage typed with LF in a CRLF note, and writes the new lines with CRLF', () => {
    const note = '# A\r\n\r\nFirst line\r\nsecond line.\r\n\r\nKeep\n';
    expect(edited(note, 'First line\nsecond line.', 'One\nTwo\nThree.')).toBe(
      '# A\r\n\r\nOne\r\nTwo\r\nThree.\r\n\r\nKeep\n',
    );
  });

  it('keeps a byte order mark, and the bytes of a Latin-1 note, writing new text as Latin-1', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Ä\n\nalt\n')]);
    expect(place(bom, { passage: 'alt' }, 'neu').bytes).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Ä\n\nneu\n')]),
    );
    // "Café: crème brûlée" in Latin-1; the model sees the accented letters as U+FFFD.
    const latin1 = Buffer.from('Caf\xe9: cr\xe8me br\xfbl\xe9e.\n', 'latin1');
    const result = place(latin1, { passage: 'Caf\uFFFD: cr' }, 'Caf\uFFFD au lait, très cr').bytes;
    expect(result).toEqual(Buffer.from('Caf\xe9 au lait, tr\xe8s cr\xe8me br\xfbl\xe9e.\n', 'latin1'));
    expect(() => place(latin1, { passage: 'br' }, 'ブ')).toThrow(/Latin-1 has no "ブ"/);
  });

  it('refuses a passage found twice, naming both places, and one that is not there, showing what is', () => {
    const note = '# A\n\nThe box.\n\n## Links\n\nThe box.\n';
    expect(() => edited(note, 'The box.', 'The slip box.')).toThrow(
      'The passage occurs 2 times in "Note.md": at line 3 (in the section "A") and line 7 (in the section "Links").',
    );
    expect(() => edited(note, 'the   BOX.', 'x')).toThrow(
      'At line 3 (in the section "A") the note has it with other spacing or capitals: "The box."',
    );
    expect(() =>
      edited('# A\n\nAtomic notes hold one idea each.\n', 'Atomic notes hold two ideas', 'x'),
    ).toThrow(
      /Its start \(18 of 27 characters\) does, at line 3 \(in the section "A"\), where the note reads: "Atomic notes hold one idea each.\n"/,
    );
    expect(() => edited(note, 'Nothing like it', 'x')).toThrow(/Not even its first or last words do/);
  });

  it('refuses new text identical to the passage', () => {
    expect(() => edited('a\r\nb\n', 'a\nb', 'a\r\nb')).toThrow(/same as the text it would replace/);
  });

  it('shows the change word by word within its section, with long unchanged stretches elided', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `Line ${index + 1}.`);
    const note = `# Top\n\nintro\n\n## Body\n\n${lines.join('\n')}\n\n## After\n\nx\n`;
    const placed = place(note, { passage: 'Line 10.' }, 'Line ten.');
    expect(placed.section).toBe('Body');
    expect(placed.line).toBe(5);
    expect(diffText(placed.diff)).toBe(
      '… 8 unchanged lines …\nLine 7.\nLine 8.\nLine 9.\nLine [-10-]{+ten+}.\nLine 11.\nLine 12.\nLine 13.\n… 8 unchanged lines …\n',
    );
  });
});

describe('placeEdit: a section', () => {
  const note = '# T\n\n## A\n\nold text\n\n### A1\n\nsub\n\n## B\n\nb\n';

  it('replaces the text under the heading up to the next heading of its level, keeping the heading and the blank lines', () => {
    const placed = place(note, { heading: 'A' }, '\n\nnew text\n\n');
    expect(placed.bytes.toString()).toBe('# T\n\n## A\n\nnew text\n\n## B\n\nb\n');
    expect(placed).toMatchObject({ target: 'section', section: 'A', line: 3 });
    expect(diffText(placed.diff)).toContain('[-old-]{+new+} text');
  });

  it('refuses an empty section, an unknown heading and empty new text', () => {
    expect(() => place('## A\n\n## B\n', { heading: 'A' }, 'x')).toThrow(/has no text to replace/);
    expect(() => place(note, { heading: 'Nope' }, 'x')).toThrow(/No heading/);
    expect(() => place(note, { heading: 'B' }, '\n  \n')).toThrow(/is empty/);
  });
});
