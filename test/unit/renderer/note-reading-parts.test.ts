import { describe, expect, it } from 'vitest';
import { backlinkContext } from '../../../src/renderer/src/features/notes/backlink-context';
import { embedKind } from '../../../src/renderer/src/features/notes/embed-kinds';
import { noteProperties } from '../../../src/renderer/src/features/notes/note-properties';
import { pdfSubpath } from '../../../src/renderer/src/features/notes/pdf-document';

describe('a note’s properties', () => {
  it('reads each value as Obsidian shows it: list items, tags, links, addresses, checkboxes', () => {
    const content = [
      '---',
      'aliases: [First, Second]',
      'tags: [reading, "#fixture/obsidian"]',
      'source: "[[Folder/Other#Part|the other]]"',
      'homepage: https://example.com/page',
      'reviewed: false',
      'rating: 4.5',
      'nested: { a: 1 }',
      'empty:',
      '---',
      '# Body',
    ].join('\n');
    expect(noteProperties(content)).toEqual({
      ok: true,
      properties: [
        {
          key: 'aliases',
          values: [
            { kind: 'text', text: 'First' },
            { kind: 'text', text: 'Second' },
          ],
        },
        {
          key: 'tags',
          values: [
            { kind: 'tag', tag: 'reading' },
            { kind: 'tag', tag: 'fixture/obsidian' },
          ],
        },
        {
          key: 'source',
          values: [
            {
              kind: 'link',
              link: { target: 'Folder/Other', subpath: 'Part', display: 'the other' },
              text: 'the other',
            },
          ],
        },
        { key: 'homepage', values: [{ kind: 'url', url: 'https://example.com/page' }] },
        { key: 'reviewed', values: [{ kind: 'checkbox', checked: false }] },
        { key: 'rating', values: [{ kind: 'text', text: '4.5' }] },
        { key: 'nested', values: [{ kind: 'text', text: '{"a":1}' }] },
        { key: 'empty', values: [] },
      ],
    });
  });

  it('is null without frontmatter, or with an empty one', () => {
    expect(noteProperties('# Just text\n\n---\nnot: frontmatter\n---\n')).toBeNull();
    expect(noteProperties('---\n---\nText.')).toBeNull();
  });

  it('says why frontmatter that is not a mapping of valid YAML cannot be read, keeping its text', () => {
    const broken = noteProperties('---\ntitle: [unclosed\n---\n');
    expect(broken).toMatchObject({ ok: false, yaml: 'title: [unclosed' });
    expect(noteProperties('---\n- a\n- b\n---\n')).toMatchObject({ ok: false, yaml: '- a\n- b' });
  });

  it('refuses YAML that expands aliases without end (a billion laughs)', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    expect(noteProperties(`---\n${lines.join('\n')}\n---\n`)).toMatchObject({ ok: false });
  });
});

describe('a backlink’s context', () => {
  it('reads as text: no list, emphasis or comment marks, the link to this note marked', () => {
    expect(
      backlinkContext('- **Read** the [[Reading view]] note for _everything_ %%hidden%% it shows.', [
        '[[Reading view]]',
      ]),
    ).toEqual([
      { text: 'Read the ', link: false },
      { text: 'Reading view', link: true },
      { text: ' note for everything it shows.', link: false },
    ]);
  });

  it('drops a callout’s marker and a block id, shows other links as their labels', () => {
    expect(
      backlinkContext('> [!note] See [[Other|this one]] and [[Target#Part|the part]]. ^abc', [
        '[[Target#Part|the part]]',
      ]),
    ).toEqual([
      { text: 'See this one and ', link: false },
      { text: 'the part', link: true },
      { text: '.', link: false },
    ]);
  });

  it('marks each link of the line to the note shown, and no other', () => {
    const parts = backlinkContext('[[Fox]], [[fox#Den]] and [[Other]].', ['[[Fox]]', '[[fox#Den]]']);
    expect(parts.filter((part) => part.link).map((part) => part.text)).toEqual(['Fox', 'fox#Den']);
    expect(parts.map((part) => part.text).join('')).toBe('Fox, fox#Den and Other.');
  });

  it('marks a Markdown link by the destination the index recorded', () => {
    expect(
      backlinkContext('… ends with [the note](Some%20note.md#Part) `code`', [
        '[the note](Some note.md#Part)',
      ]),
    ).toEqual([
      { text: '… ends with ', link: false },
      { text: 'the note', link: true },
      { text: ' code', link: false },
    ]);
  });
});

describe('embedded files', () => {
  it('show as Obsidian’s formats: images, audio, video, PDF; anything else a chip', () => {
    const kinds = [
      'a.PNG',
      'b.mp3',
      'c.wav',
      'd.m4a',
      'e.ogg',
      'f.flac',
      'g.mp4',
      'h.webm',
      'i.mov',
      'j.pdf',
    ];
    expect(kinds.map(embedKind)).toEqual([
      'image',
      'audio',
      'audio',
      'audio',
      'audio',
      'audio',
      'video',
      'video',
      'video',
      'pdf',
    ]);
    expect(['notes.txt', 'archive.zip', 'folder.mp3/file', '.pdf'].map(embedKind)).toEqual([
      'file',
      'file',
      'file',
      'file',
    ]);
  });

  it('take a PDF’s page and height from the link, as Obsidian does', () => {
    expect(pdfSubpath('page=3')).toEqual({ page: 3, height: null });
    expect(pdfSubpath('page=2&height=400')).toEqual({ page: 2, height: 400 });
    expect(pdfSubpath(null)).toEqual({ page: 1, height: null });
    expect(pdfSubpath('page=-1&height=abc')).toEqual({ page: 1, height: null });
  });
});
