import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFrontmatter, readFrontmatterWithLibrary } from '../../../../src/shared/markdown/frontmatter';
import { readSimpleYaml } from '../../../../src/shared/markdown/simple-yaml';

const wanted = new Set(['title', 'aliases', 'alias', 'tags', 'tag']);
const isSimple = (yaml: string) => readSimpleYaml(yaml, wanted) !== undefined;

const key = fc.oneof(
  fc.constantFrom(
    'title',
    'aliases',
    'alias',
    'tags',
    'tag',
    'created',
    'Title',
    'null',
    'true',
    'a-b',
    'x_y',
  ),
  fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/),
);
const word = fc.constantFrom('alpha', 'Beta', 'café', 'naïve', '日本', 'a/b', 'x-y', 'it’s', '🙂', 'v1.2');
/** Scalars both plain and not: numbers, dates, YAML words, quotes, indicators, comments, odd spaces. */
const scalar = fc.oneof(
  { weight: 6, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '2024-02-14',
      '42',
      '-7',
      '+3',
      '.5',
      '1e3',
      '0x1F',
      '0o17',
      '.inf',
      '.NaN',
      'true',
      'False',
      'NULL',
      '~',
      'yes',
      'no',
      '"quoted"',
      "'single'",
      "it's",
      'a "b" c',
      'x # comment',
      'x#y',
      '#tag',
      'a: b',
      'a:b',
      'http://x.org',
      '&anchor x',
      '*alias',
      '!tag x',
      '|',
      '>',
      '%x',
      '@x',
      '`x`',
      '-x',
      '- x',
      '?x',
      '? x',
      'a, b',
      'a,b',
      '(paren)',
      '.hidden',
      '/path',
      '_u',
      'a\tb',
      'trail ',
      'a\u00a0b',
      '\u00a0lead',
      'a\u2028b',
      'a\ufeffb',
      'a\u0085b',
      'a{b}',
      'a[b]',
      'a\\b',
      'a  b',
      'a | b',
      'a > b',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
);
const flow = fc.oneof(
  fc.array(scalar, { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
  fc.constantFrom('[]', '[ ]', '[a,,b]', '[a, b,]', '[a, [b]]', '[a] x', '[ a , b ]', '{a: b}', '[a'),
);
const separator = fc.constantFrom(': ', ': ', ':  ', ':', ' : ', ':\t');
const entryLine = fc
  .tuple(
    key,
    separator,
    fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 2, arbitrary: flow }, fc.constant('')),
  )
  .map(([name, colon, value]) => `${name}${colon}${value}`);
const itemLine = fc
  .tuple(fc.constantFrom('', '  ', '    ', '\t'), fc.constantFrom('- ', '-  ', '-'), scalar)
  .map(([indent, dash, value]) => `${indent}${dash}${value}`);
const otherLine = fc.constantFrom('', '   ', '\t', '# a comment', '  continued', '...', 'just text', '? key');
const frontmatter = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: entryLine },
      { weight: 3, arbitrary: itemLine },
      { weight: 1, arbitrary: otherLine },
    ),
    { maxLength: 8 },
  )
  .map((lines) => lines.join('\n'));

describe('simple frontmatter is read as the yaml library reads it', () => {
  it('on 5,000 generated frontmatter blocks, a good share of them simple', () => {
    let simple = 0;
    fc.assert(
      fc.property(frontmatter, (yaml) => {
        if (isSimple(yaml)) simple++;
        expect(readFrontmatter(yaml), `differs on:\n${yaml}`).toEqual(readFrontmatterWithLibrary(yaml));
      }),
      { numRuns: 5000 },
    );
    expect(simple).toBeGreaterThan(500);
  });

  it('takes the simple path for the usual shapes', () => {
    const usual = [
      'title: Argument reading 3052\naliases: [concept-3034]\ntags: [quote, area/book]\ncreated: 2024-02-14',
      'tags:\n  - one\n  - two/three\naliases:\n- Other name\ntitle: Café au lait',
      'title: A title\nempty:\nsource: (unknown)',
    ];
    for (const yaml of usual) expect(isSimple(yaml), yaml).toBe(true);
    expect(readFrontmatter(usual[1]!)).toEqual({
      title: 'Café au lait',
      aliases: ['Other name'],
      tags: ['one', 'two/three'],
      warnings: [],
    });
  });

  it('leaves everything else to the library', () => {
    const unusual = [
      'title: 2024', // a number
      'title: x\ntitle: y', // duplicate keys: the library warns
      'title: "quoted"',
      'title: a # comment',
      'tags: [a, [b]]',
      'title: first\n  continued',
      'source: https://example.org',
      'aliases:\n  - a\n    - b',
      '# only a comment',
    ];
    for (const yaml of unusual) expect(isSimple(yaml), yaml).toBe(false);
    expect(readFrontmatter('title: x\ntitle: y').warnings).toEqual([
      expect.stringMatching(/^Frontmatter is not valid YAML: Map keys must be unique/),
    ]);
  });
});
