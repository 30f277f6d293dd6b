import type { Data, Literal } from 'mdast';
import type { CompileContext, Extension, Token } from 'mdast-util-from-markdown';
import { parseWikiLinkInner } from './wikilink-inner';

/** A `[[wikilink]]` or `![[embed]]` in the Markdown tree. */
export interface WikiLink extends Literal {
  type: 'wikiLink';
  /** The source as written, e.g. `![[img.png|300]]`. */
  value: string;
  embed: boolean;
  target: string;
  subpath: string | null;
  display: string | null;
  data?: Data;
}

declare module 'mdast' {
  interface PhrasingContentMap {
    wikiLink: WikiLink;
  }
  interface RootContentMap {
    wikiLink: WikiLink;
  }
}

function enter(this: CompileContext, token: Token): undefined {
  const node: WikiLink = {
    type: 'wikiLink',
    value: '',
    embed: false,
    target: '',
    subpath: null,
    display: null,
  };
  this.enter(node, token);
}

function exit(this: CompileContext, token: Token): undefined {
  const node = this.stack[this.stack.length - 1] as WikiLink;
  const raw = this.sliceSerialize(token);
  const embed = raw.startsWith('!');
  const parts = parseWikiLinkInner(raw.slice(embed ? 3 : 2, -2));
  Object.assign(node, { value: raw, embed, ...parts });
  const text = node.display ?? raw.slice(embed ? 3 : 2, -2).replace(/\\\|/, '|');
  // What a renderer (react-markdown) makes of it: an element whose data attributes say where it points.
  node.data = {
    hName: embed ? 'span' : 'a',
    hProperties: {
      className: embed ? ['wikilink-embed'] : ['wikilink'],
      dataTarget: node.target,
      dataSubpath: node.subpath ?? '',
      dataLine: node.position?.start.line,
      dataColumn: node.position?.start.column,
    },
    hChildren: [{ type: 'text', value: text }],
  };
  this.exit(token);
}

/** Turns the micromark tokens of wikiLinkSyntax into `wikiLink` nodes. */
export function wikiLinkFromMarkdown(): Extension {
  return { enter: { wikiLink: enter, wikiEmbed: enter }, exit: { wikiLink: exit, wikiEmbed: exit } };
}
