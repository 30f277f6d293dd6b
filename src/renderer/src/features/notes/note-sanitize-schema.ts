import { defaultSchema, type Options as Schema } from 'rehype-sanitize';

const defaults = defaultSchema.attributes ?? {};

/**
 * What a note's raw HTML may contain: GitHub's schema (no scripts, event handlers, `style`, forms or
 * frames; links only to http(s)/mailto) plus the formatting Obsidian users write, the classes and data
 * attributes of the elements our own remark plugins make (wikilinks, embeds, math), and no remote loads.
 */
export const noteSanitizeSchema: Schema = {
  ...defaultSchema,
  tagNames: [
    // `<source srcset>` would load from anywhere (srcset has no protocol check).
    ...(defaultSchema.tagNames ?? []).filter((name) => name !== 'picture' && name !== 'source'),
    ...['mark', 'u', 'small', 'abbr', 'cite', 'dfn', 'figure', 'figcaption', 'caption', 'colgroup', 'col'],
  ],
  // Dropped with their content: the text of a script or a style sheet is no prose to show.
  strip: ['script', 'style', 'iframe', 'object', 'template', 'noscript', 'textarea', 'select'],
  attributes: {
    ...defaults,
    a: [
      // One className rule per element: the sanitizer reads only one. `wikilink` is the element a
      // `[[wikilink]]` becomes (see wikilink-mdast), matched to the index by MarkdownNote; `tag` an
      // inline `#tag` (see remark-tags), which searches for its tag.
      ...(defaults.a ?? []).filter((rule) => !Array.isArray(rule) || rule[0] !== 'className'),
      ['className', 'data-footnote-backref', 'wikilink', 'tag'],
      'dataTag',
      'dataTarget',
      'dataSubpath',
      'dataLine',
      'dataColumn',
    ],
    span: [...(defaults.span ?? []), 'className', 'dataTarget', 'dataSubpath', 'dataLine', 'dataColumn'],
    div: [...(defaults.div ?? []), 'className'],
    // remark-math marks inline and display math for rehype-katex, which runs after this schema.
    code: [['className', /^language-./, 'math-inline', 'math-display']],
    abbr: ['title'],
    col: ['span'],
    colgroup: ['span'],
  },
  protocols: {
    ...defaultSchema.protocols,
    // Images load from the vault (a relative path, fetched as a blob) or from the note itself: never from
    // the network, which would tell a server that the note was opened.
    src: ['data'],
  },
};
