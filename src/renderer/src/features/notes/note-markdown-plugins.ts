import { defaultUrlTransform, type Options, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import { remarkHighlightMark } from 'remark-highlight-mark';
import remarkMath from 'remark-math';
import type { PluggableList } from 'unified';
import { remarkPluginsFor } from '../../../../shared/markdown/parse-markdown';
import { mathPlugin, type NoteMath } from './note-math';
import { noteSanitizeSchema } from './note-sanitize-schema';
import { rehypeObsidianCallouts } from './rehype-obsidian-callouts';
import { rehypeSourceLines } from './rehype-source-lines';
import { remarkHideComments } from './remark-hide-comments';
import { remarkInlineFootnotes } from './remark-inline-footnotes';
import { remarkTags } from './remark-tags';

/**
 * The remark plugins for a note: the shared parser's (so lines and columns agree with the index), then
 * what only the reading view needs: `$math$`, `==highlights==`, no comments (`%%` or HTML), inline
 * footnotes and `#tags`; each later one reads the tree the one before left (no tag in a comment).
 */
export function noteRemarkPlugins(content: string): PluggableList {
  return [
    ...remarkPluginsFor(content),
    remarkMath,
    remarkHighlightMark,
    remarkHideComments,
    remarkInlineFootnotes,
    remarkTags,
  ];
}

/**
 * Raw HTML is parsed, then sanitized; everything after the sanitizer is our own markup (KaTeX's, the
 * highlighted code's, the callouts' icons, source lines), which the schema therefore need not allow.
 * Math goes to KaTeX once `math` says it is loaded (see note-math.ts). Code is highlighted as in the
 * chat; a Mermaid block is left as text for the diagram to read.
 */
export function noteRehypePlugins(math: NoteMath): PluggableList {
  return [
    rehypeRaw,
    [rehypeSanitize, noteSanitizeSchema],
    mathPlugin(math),
    [rehypeHighlight, { plainText: ['mermaid'] }],
    rehypeObsidianCallouts,
    rehypeSourceLines,
  ];
}

export const noteRemarkRehypeOptions: Options['remarkRehypeOptions'] = {
  // The sanitizer prefixes every id (footnotes' too); prefixing here as well would double it.
  clobberPrefix: '',
  handlers: {
    highlight: (state, node) => {
      const mark = { type: 'element' as const, tagName: 'mark', properties: {}, children: state.all(node) };
      state.patch(node, mark);
      return state.applyData(node, mark);
    },
  },
};

/** Images written into the note itself (`data:image/…`) show as they are; other URLs as react-markdown allows. */
export const noteUrlTransform: UrlTransform = (url, key) =>
  key === 'src' && /^data:image\//i.test(url) ? url : defaultUrlTransform(url);
