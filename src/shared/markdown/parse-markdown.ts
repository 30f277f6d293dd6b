import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified, type PluggableList } from 'unified';
import { locateFrontmatter } from './frontmatter';
import { remarkWikiLinks } from './remark-wikilinks';

// Obsidian strikes through with `~~` only, not GFM's single `~`.
const markdown = unified().use(remarkParse).use(remarkGfm, { singleTilde: false }).use(remarkWikiLinks);
const withFrontmatter = markdown().use(remarkFrontmatter, ['yaml']);

/**
 * The remark plugins that read `source` exactly as parseMarkdown does, for renderers (react-markdown)
 * that run their own processor: line and column numbers then agree with the index's.
 */
export function remarkPluginsFor(source: string): PluggableList {
  const plugins: PluggableList = [[remarkGfm, { singleTilde: false }], remarkWikiLinks];
  if (hasFrontmatter(source)) plugins.push([remarkFrontmatter, ['yaml']]);
  return plugins;
}

function hasFrontmatter(text: string): boolean {
  return locateFrontmatter(text.split(/\r\n|\r|\n/, 4096)).yaml !== null;
}

/** The reference Markdown parser: CommonMark + GFM + YAML frontmatter + wikilinks, as an mdast tree. */
export function parseMarkdown(source: string): Root {
  const text = source.replace(/^\uFEFF/, '');
  // micromark-extension-frontmatter 2 leaves lists unrecognized after a `---` that opens no frontmatter
  // (no closing fence), so the extension is only used when the frontmatter is really there.
  return (hasFrontmatter(text) ? withFrontmatter : markdown).parse(text);
}
