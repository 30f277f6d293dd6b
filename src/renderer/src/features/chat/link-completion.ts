import { parseWikiLinkInner } from '../../../../shared/markdown/wikilink-inner';

/** The `[[` being typed just before the caret, if any. */
export function openLinkBefore(text: string, caret: number): { start: number; query: string } | null {
  const match = /\[\[([^[\]|#\n]*)$/.exec(text.slice(0, caret));
  return match ? { start: match.index, query: match[1]! } : null;
}

/**
 * The `[[Note#` (a heading) or `[[Note#^` (a block) being typed just before the caret, if any: `query` is
 * what follows the `#` or `#^`.
 */
export function openSubpathBefore(
  text: string,
  caret: number,
): { start: number; target: string; block: boolean; query: string } | null {
  const match = /\[\[([^[\]|#\n]+)#(\^?)([^[\]|#^\n]*)$/.exec(text.slice(0, caret));
  if (!match || match[1]!.trim() === '') return null;
  return { start: match.index, target: match[1]!, block: match[2] === '^', query: match[3]! };
}

/** The wikilinks of a draft, as the main process will parse them on send. */
export function linksIn(text: string) {
  return [...text.matchAll(/\[\[([^[\]\n]+)\]\]/g)]
    .map((match) => ({ raw: match[0], parts: parseWikiLinkInner(match[1]!) }))
    .filter((link) => link.parts !== null)
    .map((link) => ({ raw: link.raw, target: link.parts!.target, subpath: link.parts!.subpath }));
}
