import type { Nodes, Parent, PhrasingContent, RootContent } from 'mdast';
import { readFrontmatter } from './frontmatter';
import type { NoteFacts } from './note-facts';
import { parseMarkdown } from './parse-markdown';
import {
  addTags,
  blockIdAtEnd,
  countWords,
  headingText,
  leadOf,
  localDestination,
  tagsIn,
  titleFromFileName,
} from './text-rules';
import { wikiLinkLabel } from './wikilink-inner';

/** Plain text of inline content: text, code, wikilinks as their label, images as their alt text. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'break':
      return '\n';
    case 'wikiLink':
      return wikiLinkLabel(node);
    case 'image':
      return node.alt ?? '';
    case 'html':
    case 'footnoteReference':
      return '';
    default:
      return 'children' in node ? (node.children as Nodes[]).map(plainText).join('') : '';
  }
}

/** The reference extractor: everything the index needs from one note, from the unified/remark tree. */
export function extractNote(source: string, fileName: string): NoteFacts {
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
  const textParts: string[] = [];
  let firstH1: string | null = null;
  let frontmatterTitle: string | null = null;
  let lead: string | null = null;

  const visit = (node: RootContent | PhrasingContent): void => {
    switch (node.type) {
      case 'yaml': {
        const frontmatter = readFrontmatter(node.value);
        frontmatterTitle = frontmatter.title;
        facts.aliases = frontmatter.aliases;
        addTags(facts.tags, seenTags, frontmatter.tags);
        facts.warnings.push(...frontmatter.warnings);
        return;
      }
      case 'heading': {
        const text = headingText(plainText(node));
        facts.headings.push({ level: node.depth, text, line: node.position!.start.line });
        if (node.depth === 1 && firstH1 === null) firstH1 = text;
        textParts.push(text);
        break;
      }
      case 'paragraph': {
        const text = plainText(node);
        textParts.push(text);
        if (lead === null && text.trim() !== '') lead = text;
        const last = node.children[node.children.length - 1];
        const id = last?.type === 'text' ? blockIdAtEnd(last.value) : null;
        if (id !== null) facts.blocks.push({ id, line: node.position!.end.line });
        break;
      }
      case 'tableCell':
        textParts.push(plainText(node));
        break;
      case 'code':
        textParts.push(node.value);
        return;
      case 'text':
        addTags(facts.tags, seenTags, tagsIn(node.value));
        return;
      case 'wikiLink':
        facts.links.push({
          embed: node.embed,
          target: node.target,
          subpath: node.subpath,
          display: node.display,
          line: node.position!.start.line,
          column: node.position!.start.column,
          raw: node.value,
        });
        return;
      case 'link':
      case 'image': {
        const destination = localDestination(node.url);
        if (destination) {
          facts.markdownLinks.push({
            ...destination,
            text: node.type === 'image' ? (node.alt ?? '') : plainText(node),
            embed: node.type === 'image',
            line: node.position!.start.line,
            column: node.position!.start.column,
          });
        }
        break;
      }
    }
    if ('children' in node) for (const child of (node as Parent).children) visit(child);
  };
  for (const node of parseMarkdown(source).children) visit(node);

  facts.title = frontmatterTitle ?? firstH1 ?? titleFromFileName(fileName);
  facts.text = textParts.join('\n');
  facts.lead = leadOf(lead ?? '');
  facts.wordCount = countWords(facts.text);
  return facts;
}
