import type { Nodes } from 'mdast';
import { plainText } from '../../../../shared/markdown/extract-note';
import { parseMarkdown } from '../../../../shared/markdown/parse-markdown';
import { wikiLinkLabel } from '../../../../shared/markdown/wikilink-inner';
import { remarkHideComments } from './remark-hide-comments';

/** A run of a backlink's context; `link` marks the link to the note shown. */
export interface ContextPart {
  text: string;
  link: boolean;
}

const hideComments = remarkHideComments();
const calloutMarker = /^\[![\w-]+\][+-]?\s*/;
const blockId = /\s+\^[A-Za-z0-9-]+\s*$/;

/**
 * A backlink's context (a cut of the linking line, in Markdown) as the text it reads as: no emphasis
 * marks, list, quote or callout markers, comments or HTML; wikilinks as their label, and the links
 * written as one of `raws` (those to the note shown) marked, as Obsidian's backlinks show them.
 */
export function backlinkContext(context: string, raws: readonly string[]): ContextPart[] {
  const tree = parseMarkdown(context);
  hideComments(tree);
  const parts: ContextPart[] = [];
  const add = (text: string, link = false) => {
    const last = parts.at(-1);
    if (last && last.link === link) last.text += text;
    else if (text !== '') parts.push({ text, link });
  };
  const visit = (node: Nodes, inLink: boolean): void => {
    switch (node.type) {
      case 'text':
      case 'inlineCode':
        return add(node.value.replace(/\s+/g, ' '), inLink);
      case 'wikiLink':
        return add(wikiLinkLabel(node), raws.includes(node.value));
      case 'image':
        return add(node.alt ?? '', inLink);
      case 'break':
        return add(' ', inLink);
      case 'html':
      case 'yaml':
      case 'code':
      case 'footnoteReference':
      case 'definition':
        return;
      case 'link': {
        // The index names a Markdown link `[text](target#subpath)`, its destination decoded.
        const written = `[${plainText(node)}](${decoded(node.url)})`;
        for (const child of node.children) visit(child, inLink || raws.includes(written));
        return;
      }
      default:
        if (!('children' in node)) return;
        for (const child of node.children) visit(child, inLink);
        if (parts.length > 0 && node.type !== 'root' && !isPhrasing(node)) add(' ', false);
    }
  };
  visit(tree, false);
  const first = parts[0];
  if (first && context.trimStart().startsWith('>')) first.text = first.text.replace(calloutMarker, '');
  const last = parts.at(-1);
  if (last) last.text = last.text.replace(blockId, '').trimEnd();
  if (first) first.text = first.text.trimStart();
  return parts.filter((part) => part.text !== '');
}

const phrasing: ReadonlySet<string> = new Set(['emphasis', 'strong', 'delete', 'link', 'linkReference']);
const isPhrasing = (node: Nodes) => phrasing.has(node.type);

function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
