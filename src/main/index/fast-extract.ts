import MarkdownIt, { type Token } from 'markdown-it';
import { locateFrontmatter, readFrontmatter } from '../../shared/markdown/frontmatter';
import type { NoteFacts } from '../../shared/markdown/note-facts';
import {
  addTags,
  blockIdAtEnd,
  countWords,
  headingText,
  leadOf,
  localDestination,
  tagsIn,
  titleFromFileName,
} from '../../shared/markdown/text-rules';
import { wikiLinkLabel } from '../../shared/markdown/wikilink-inner';
import { markdownItWikiLinks, tokenStart, wikiLinkMeta } from './markdown-it-wikilinks';
import { cellMap, headingMap, linesMap, type SourceMap } from './source-positions';

// The 'reference' rule is off: GFM footnote definitions (`[^1]: [[X]]`) would otherwise be read as link
// definitions and their wikilinks lost, and link definitions carry nothing the index needs.
const md = new MarkdownIt('default', { html: true, linkify: false })
  .disable('reference')
  .use(markdownItWikiLinks);

/** Plain text of inline tokens (text, code, wikilink labels, image alt text). */
function inlineText(tokens: Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
    else if (token.type === 'wikilink') text += wikiLinkLabel(wikiLinkMeta(token));
    else if (token.type === 'image') text += inlineText(token.children ?? []);
  }
  return text;
}

/**
 * The fast extractor used for indexing: markdown-it's token stream instead of an mdast tree, an order of
 * magnitude faster, and proven equal to `extractNote` by the differential test.
 */
export function fastExtractNote(source: string, fileName: string): NoteFacts {
  const facts: NoteFacts = {
    title: '',
    aliases: [],
    tags: [],
    headings: [],
    blocks: [],
    links: [],
    markdownLinks: [],
    lead: '',
    wordCount: 0,
    text: '',
    warnings: [],
  };
  const seenTags = new Set<string>();
  const lines = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const { yaml, bodyStart } = locateFrontmatter(lines);
  let frontmatterTitle: string | null = null;
  if (yaml !== null) {
    const frontmatter = readFrontmatter(yaml);
    frontmatterTitle = frontmatter.title;
    facts.aliases = frontmatter.aliases;
    addTags(facts.tags, seenTags, frontmatter.tags);
    facts.warnings.push(...frontmatter.warnings);
  }
  // Blank lines keep markdown-it's line numbers those of the file.
  const body =
    bodyStart === 0 ? lines.join('\n') : '\n'.repeat(bodyStart) + lines.slice(bodyStart).join('\n');
  const tokens = md.parse(body, {});

  const textParts: string[] = [];
  let firstH1: string | null = null;
  let lead: string | null = null;
  let rowLine = 0;
  const cellCursor = { at: 0 };

  const readInline = (inline: Token, map: SourceMap) => {
    const children = inline.children ?? [];
    for (let index = 0; index < children.length; index++) {
      const token = children[index]!;
      if (token.type === 'text') addTags(facts.tags, seenTags, tagsIn(token.content));
      else if (token.type === 'wikilink') {
        const meta = wikiLinkMeta(token);
        const { line, column } = map.at(meta.start);
        const end = map.at(meta.end);
        facts.links.push({
          embed: meta.embed,
          target: meta.target,
          subpath: meta.subpath,
          display: meta.display,
          line,
          column,
          raw: (lines[line - 1] ?? '').slice(column - 1, end.column - 1),
        });
      } else if (token.type === 'link_open' || token.type === 'image') {
        const url = String(token.attrGet(token.type === 'image' ? 'src' : 'href') ?? '');
        const destination = localDestination(url);
        let text: string;
        if (token.type === 'image') {
          // Like mdast, where alt text is a plain string: no tags inside it.
          text = inlineText(token.children ?? []);
        } else {
          let close = index + 1;
          for (let depth = 1; close < children.length; close++) {
            if (children[close]!.type === 'link_open') depth++;
            if (children[close]!.type === 'link_close' && --depth === 0) break;
          }
          text = inlineText(children.slice(index + 1, close));
        }
        if (destination) {
          const { line, column } = map.at(tokenStart(token));
          facts.markdownLinks.push({ ...destination, text, embed: token.type === 'image', line, column });
        }
      }
    }
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const inline = tokens[index + 1];
    switch (token.type) {
      case 'heading_open': {
        if (!inline || !token.map) break;
        const level = Number(token.tag.slice(1));
        const text = headingText(inlineText(inline.children ?? []));
        facts.headings.push({ level, text, line: token.map[0] + 1 });
        if (level === 1 && firstH1 === null) firstH1 = text;
        textParts.push(text);
        const setext = token.markup === '=' || token.markup === '-';
        const map = setext
          ? linesMap(inline.content, token.map[0], lines)
          : headingMap(inline.content, token.map[0], lines);
        readInline(inline, map);
        index++;
        break;
      }
      case 'paragraph_open': {
        if (!inline || !token.map) break;
        const text = inlineText(inline.children ?? []);
        textParts.push(text);
        if (lead === null && text.trim() !== '') lead = text;
        const last = inline.children?.[inline.children.length - 1];
        const id = last?.type === 'text' ? blockIdAtEnd(last.content) : null;
        if (id !== null) facts.blocks.push({ id, line: token.map[1] });
        readInline(inline, linesMap(inline.content, token.map[0], lines));
        index++;
        break;
      }
      case 'tr_open':
        rowLine = token.map?.[0] ?? rowLine;
        cellCursor.at = 0;
        break;
      case 'th_open':
      case 'td_open': {
        if (!inline) break;
        textParts.push(inlineText(inline.children ?? []));
        if (inline.content !== '') readInline(inline, cellMap(inline.content, rowLine, lines, cellCursor));
        index++;
        break;
      }
      case 'fence':
      case 'code_block':
        textParts.push(token.content.replace(/\n$/, ''));
        break;
    }
  }

  facts.title = frontmatterTitle ?? firstH1 ?? titleFromFileName(fileName);
  facts.text = textParts.join('\n');
  facts.lead = leadOf(lead ?? '');
  facts.wordCount = countWords(facts.text);
  return facts;
}
