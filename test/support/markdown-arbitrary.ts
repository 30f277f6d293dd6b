import fc from 'fast-check';

// Realistic but tricky Markdown for the differential test: every construct the extractors care about,
// mixed with the ones that hide or mimic them (code, comments, escapes, tables, quotes, lists).

const word = fc.constantFrom(
  'note',
  'idea',
  'Zettel',
  'Luhmann',
  'café',
  'naïve',
  '東京',
  'emoji 🦊',
  'x_y',
  'a-b',
  'v1.2',
);
const name = fc.constantFrom(
  'Note',
  'Other note',
  'folder/Deep note',
  './Near',
  '../Up',
  'Café',
  'img.png',
  'doc.pdf',
  'A.md',
);
const heading = fc.constantFrom('Intro', 'Part one', 'Why: reasons', 'H1#H2', 'Ünïcode');
const subpath = fc.oneof(
  fc.constant(''),
  heading.map((h) => `#${h}`),
  fc.constantFrom('#^block-1', '#^x9', '#H1#H2', '#'),
);
const display = fc.oneof(
  fc.constant(''),
  word.map((w) => `|${w}`),
  fc.constant('|300'),
  fc.constant('|'),
);

const wikilink = fc
  .tuple(fc.boolean(), name, subpath, display, fc.boolean())
  .map(
    ([embed, target, sub, shown, selfLink]) =>
      `${embed ? '!' : ''}[[${selfLink ? '' : target}${sub}${shown}]]`,
  );
const brokenWikilink = fc.constantFrom(
  '[[]]',
  '[[ ]]',
  '[[|x]]',
  '[[a[b]]',
  '[[a]b]]',
  '[[#]]',
  '![[',
  '[[x]',
  '[ [x]]',
);
const tag = fc.constantFrom('#tag', '#nested/tag', '#2024', '#a-b_c', '#Ünï', 'x#no', '#tag/', '(#paren)');
const markdownLink = fc.constantFrom(
  '[text](Note.md)',
  '[sp](my%20note.md#Part)',
  '[ext](https://example.org/#frag)',
  '![alt *em*](img/pic.png)',
  '[local](#Heading)',
  '<https://auto.link>',
  '[t](<a b.md>)',
  '[t](a [[x]])',
  '[see [[Inner]]](Out.md)',
);
const inlineCode = fc.constantFrom('`[[code]]`', '`#notag`', '``[[a]] ` b``', '`x`');
const html = fc.constantFrom(
  '<!-- [[hidden]] -->',
  '<span>[[in span]]</span>',
  '<b>#bold</b>',
  '&#35;entity',
  '&amp;',
);
const escape = fc.constantFrom('\\[[escaped]]', '\\#escaped', '\\!', '\\\\');
const emphasis = fc.tuple(fc.constantFrom('*', '**', '_', '~~'), word).map(([m, w]) => `${m}${w}${m}`);

const inline = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 4, arbitrary: wikilink },
  { weight: 1, arbitrary: brokenWikilink },
  { weight: 2, arbitrary: tag },
  { weight: 2, arbitrary: markdownLink },
  { weight: 2, arbitrary: inlineCode },
  { weight: 1, arbitrary: html },
  { weight: 1, arbitrary: escape },
  { weight: 2, arbitrary: emphasis },
);
/**
 * Unicode spaces as well as ASCII ones, inside and at the end of lines: a line ending in a space and a
 * no-break space shifted every link's column on it (markdown-it trims ASCII spaces only).
 */
const space = fc.constantFrom(' ', ' ', ' ', ' ', '\u00A0', '\u2003', '\u3000', '\u200A');
const lineEnd = fc.constantFrom(
  '',
  '',
  '',
  ' ',
  '  ',
  ' \u00A0',
  '\u00A0',
  '\u3000',
  '\t',
  '\u2000 ',
  ' \u00A0 ',
);
const sentence = fc
  .tuple(fc.array(fc.tuple(inline, space), { minLength: 1, maxLength: 8 }), lineEnd)
  .map(
    ([parts, end]) =>
      parts.map(([part, gap], index) => (index === 0 ? part : `${gap}${part}`)).join('') + end,
  );
const blockId = fc.constantFrom('', '', '', ' ^block-1', ' ^x9');
const paragraph = fc
  .tuple(fc.array(sentence, { minLength: 1, maxLength: 3 }), blockId)
  .map(([lines, id]) => lines.join('\n') + id);

const cell = fc.oneof(
  word,
  wikilink.map((link) => link.replace('|', '\\|')),
  tag,
  inlineCode,
  fc.constant(''),
);
const table = fc
  .array(fc.tuple(cell, cell), { minLength: 1, maxLength: 3 })
  .map((rows) => ['| A | B |', '| --- | :-: |', ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n'));

const block = fc.oneof(
  { weight: 6, arbitrary: paragraph },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 6 }), sentence)
      .map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(sentence, fc.constantFrom('===', '---')).map(([text, rule]) => `${text}\n${rule}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(paragraph, { minLength: 1, maxLength: 3 })
      .map((items) => items.map((item) => `- ${item.replace(/\n/g, '\n  ')}`).join('\n')),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(paragraph, { minLength: 1, maxLength: 2 })
      .map((items) => items.map((item, i) => `${i + 1}. ${item.replace(/\n/g, '\n   ')}`).join('\n')),
  },
  {
    weight: 1,
    arbitrary: paragraph.map((text) =>
      text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
    ),
  },
  { weight: 2, arbitrary: table },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('```', '~~~', '```md'), sentence)
      .map(([fence, text]) => `${fence}\n${text}\n${fence.slice(0, 3)}`),
  },
  { weight: 1, arbitrary: sentence.map((text) => `    ${text}`) },
  { weight: 1, arbitrary: sentence.map((text) => `<!--\n${text}\n-->`) },
  { weight: 1, arbitrary: fc.constantFrom('---', '***', '<div>\n[[in html block]]\n</div>') },
);

const frontmatter = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc
      .record({
        title: fc.option(word, { nil: undefined }),
        aliases: fc.array(word, { maxLength: 2 }),
        tags: fc.array(fc.constantFrom('alpha', 'beta/gamma', '#hash', 'Alpha'), { maxLength: 3 }),
      })
      .map(({ title, aliases, tags }) =>
        [
          '---',
          title ? `title: "${title}"` : null,
          `aliases: [${aliases.map((a) => JSON.stringify(a)).join(', ')}]`,
          `tags: [${tags.join(', ')}]`,
          '---',
          '',
        ]
          .filter((line) => line !== null)
          .join('\n'),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '---\ntitle: [broken\n---\n',
      '---\nalias: Single\ntags: one two\n---\n',
      '---\n---\n',
      '---\nno close\n',
    ),
  },
);

/** A whole note: optional frontmatter, blocks separated by blank lines, sometimes CRLF. */
export const markdownDocument = fc
  .tuple(frontmatter, fc.array(block, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean())
  .map(([front, blocks, crlf, bom]) => {
    const text = front + blocks.join('\n\n') + '\n';
    return (bom ? '\uFEFF' : '') + (crlf ? text.replace(/\n/g, '\r\n') : text);
  });
