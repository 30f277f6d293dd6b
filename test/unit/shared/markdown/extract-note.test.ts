import { describe, expect, it } from 'vitest';
import { extractNote } from '../../../../src/shared/markdown/extract-note';

const note = (source: string, name = 'Note.md') => extractNote(source, name);

describe('the reference extractor', () => {
  it('reads every wikilink form with target, subpath, display and position', () => {
    const facts = note(
      [
        'Plain [[Note]] and [[Note.md]] and [[Note|shown text]].',
        'Headings [[Note#Heading]], [[Note#H1#H2]], [[Note#^block-1]], [[#Local heading]].',
        'Embeds ![[diagram.png]] and ![[img.png|300]] and ![[Other#Section]].',
      ].join('\n'),
    );
    expect(
      facts.links.map(({ embed, target, subpath, display }) => [embed, target, subpath, display]),
    ).toEqual([
      [false, 'Note', null, null],
      [false, 'Note.md', null, null],
      [false, 'Note', null, 'shown text'],
      [false, 'Note', 'Heading', null],
      [false, 'Note', 'H1#H2', null],
      [false, 'Note', '^block-1', null],
      [false, '', 'Local heading', null],
      [true, 'diagram.png', null, null],
      [true, 'img.png', null, '300'],
      [true, 'Other', 'Section', null],
    ]);
    expect(facts.links[0]).toMatchObject({ line: 1, column: 7, raw: '[[Note]]' });
    expect(facts.links[8]).toMatchObject({ line: 3, column: 29, raw: '![[img.png|300]]' });
  });

  it('splits on an escaped pipe inside a table and keeps positions', () => {
    const facts = note('| Link | Size |\n| --- | --- |\n| [[Target\\|alias]] | ![[pic.png\\|120]] |\n');
    expect(facts.links).toEqual([
      {
        embed: false,
        target: 'Target',
        subpath: null,
        display: 'alias',
        line: 3,
        column: 3,
        raw: '[[Target\\|alias]]',
      },
      {
        embed: true,
        target: 'pic.png',
        subpath: null,
        display: '120',
        line: 3,
        column: 23,
        raw: '![[pic.png\\|120]]',
      },
    ]);
  });

  it('ignores link-like text in code spans, fences, indented code, HTML comments and frontmatter', () => {
    const facts = note(
      [
        '---',
        'related: "[[Not a link]]"',
        '---',
        'Inline `[[code]] #nottag` and a real [[Real]] #realtag.',
        '',
        '```md',
        '[[fenced]] #fenced',
        '```',
        '',
        '    [[indented]]',
        '',
        '<!-- [[commented]] #commented -->',
        '',
        'Not links: [[]], [[ ]], [[|x]], [[a',
        'b]], [[x[y]]].',
      ].join('\n'),
    );
    expect(facts.links.map((link) => link.target)).toEqual(['Real']);
    expect(facts.tags).toEqual(['realtag']);
    expect(facts.text).toContain('[[fenced]]');
  });

  it('takes title, aliases and tags from frontmatter, nested and inline tags, deduplicated', () => {
    const facts = note(
      '---\ntitle: The Title\naliases: [One, "Two"]\ntags: [alpha, "#Beta"]\n---\n# H1\n#beta #a/b/c #2024 x#no\n',
    );
    expect(facts).toMatchObject({
      title: 'The Title',
      aliases: ['One', 'Two'],
      tags: ['alpha', 'Beta', 'a/b/c'],
    });
    expect(note('text\n\n# First H1\n\n# Second').title).toBe('First H1');
    expect(note('no heading', 'File name.md').title).toBe('File name');
    expect(note('---\nalias: Solo\ntags: one, two\n---\n').aliases).toEqual(['Solo']);
    expect(note('---\nalias: Solo\ntags: one, two\n---\n').tags).toEqual(['one', 'two']);
  });

  it('warns about malformed YAML and still reads the body', () => {
    const facts = note('---\ntitle: [unclosed\n---\n# Body title\nSee [[Target]].\n');
    expect(facts.warnings).toEqual([expect.stringMatching(/^Frontmatter is not valid YAML/)]);
    expect(facts.title).toBe('Body title');
    expect(facts.links.map((link) => link.target)).toEqual(['Target']);
  });

  it('handles a byte-order mark and CRLF line ends', () => {
    const facts = note('\uFEFF---\r\ntitle: BOM\r\n---\r\n# Heading\r\n\r\nLine [[Link]] ^id1\r\n');
    expect(facts.title).toBe('BOM');
    expect(facts.headings).toEqual([{ level: 1, text: 'Heading', line: 4 }]);
    expect(facts.links[0]).toMatchObject({ line: 6, column: 6 });
    expect(facts.blocks).toEqual([{ id: 'id1', line: 6 }]);
  });

  it('finds headings with plain text and block ids in paragraphs and list items', () => {
    const facts = note(
      '# Title with [[Link|shown]]\n\nSetext *heading*\n---\n\n- item one ^item-1\n- item two\n\n> quoted\n> text ^q\n',
    );
    expect(facts.headings).toEqual([
      { level: 1, text: 'Title with shown', line: 1 },
      { level: 2, text: 'Setext heading', line: 3 },
    ]);
    expect(facts.blocks).toEqual([
      { id: 'item-1', line: 6 },
      { id: 'q', line: 10 },
    ]);
  });

  it('lists local Markdown links and images, decoded, with subpaths', () => {
    const facts = note(
      '[a](my%20note.md#Part) [b](https://x.org) ![c](img/pic.png) [d](#Local) <https://y.org>',
    );
    expect(
      facts.markdownLinks.map(({ target, subpath, text, embed }) => [target, subpath, text, embed]),
    ).toEqual([
      ['my note.md', 'Part', 'a', false],
      ['img/pic.png', null, 'c', true],
      ['', 'Local', 'd', false],
    ]);
  });

  it('gives a lead paragraph and a word count', () => {
    const facts = note('---\ntitle: x\n---\n# Head\n\nFirst paragraph is **the lead**.\n\nSecond one.');
    expect(facts.lead).toBe('First paragraph is the lead.');
    expect(facts.wordCount).toBe(8);
  });
});
