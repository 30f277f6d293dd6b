import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { locateFrontmatter } from './frontmatter';
import { remarkWikiLinks } from './remark-wikilinks';

// Obsidian strikes through with `~~` only, not GFM's single `~`.
const markdown = unified().use(remarkParse).use(remarkGfm, { singleTilde: false }).use(remarkWikiLinks);
const withFrontmatter = markdown().use(remarkFrontmatter, ['yaml']);

/** The reference Markdown parser: CommonMark + GFM + YAML frontmatter + wikilinks, as an mdast tree. */
export function parseMarkdown(source: string): Root {
  const text = source.replace(/^\uFEFF/, '');
  // micromark-extension-frontmatter 2 leaves lists unrecognized after a `---` that opens no frontmatter
  // (no closing fence), so the extension is only used when the frontmatter is really there.
  const hasFrontmatter = locateFrontmatter(text.split(/\r\n|\r|\n/, 4096)).yaml !== null;
  return (hasFrontmatter ? withFrontmatter : markdown).parse(text);
}
