import type { Processor } from 'unified';
import { wikiLinkFromMarkdown } from './wikilink-mdast';
import { wikiLinkSyntax } from './wikilink-syntax';

/** unified plugin: parse `[[wikilinks]]` and `![[embeds]]` into `wikiLink` nodes. */
export function remarkWikiLinks(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(wikiLinkSyntax());
  (data.fromMarkdownExtensions ??= []).push(wikiLinkFromMarkdown());
}
