import type { NoteFacts } from './note-facts';

/** A wikilink, embed or Markdown link as the index stores it. */
export interface LinkOccurrence {
  kind: 'wikilink' | 'markdown';
  embed: boolean;
  target: string;
  subpath: string | null;
  display: string | null;
  line: number;
  column: number;
  raw: string;
}

/** A note's wikilinks then its Markdown links, in one shape. */
export function linkOccurrences(facts: Pick<NoteFacts, 'links' | 'markdownLinks'>): LinkOccurrence[] {
  return [
    ...facts.links.map((link) => ({ ...link, kind: 'wikilink' as const })),
    ...facts.markdownLinks.map((link) => {
      const subpath = link.subpath === null ? '' : `#${link.subpath}`;
      return {
        kind: 'markdown' as const,
        embed: link.embed,
        target: link.target,
        subpath: link.subpath,
        display: link.text,
        line: link.line,
        column: link.column,
        // The parser keeps no source slice for Markdown links; this reads the same in lists of links.
        raw: `${link.embed ? '!' : ''}[${link.text}](${link.target}${subpath})`,
      };
    }),
  ];
}

/** How much of a link's line its context keeps before and after the link, in characters. */
const contextBefore = 40;
const contextAfter = 100;

/**
 * The text around each link on its source line, shown next to backlinks: up to 40 characters before
 * the link and 100 after, cut at spaces and marked `…` where cut. The whole line was kept before, capped
 * at 240 characters, so a link late in a long paragraph was not in its own context; and a note with
 * links on long lines stored each line once per link (a fifth of a 10k-note vault's index).
 */
export function linkContexts(
  source: string,
  links: { line: number; column: number; raw: string }[],
): string[] {
  const lines = source.split(/\r?\n/);
  return links.map((link) => around(lines[link.line - 1] ?? '', link.column - 1, link.raw.length));
}

function around(line: string, start: number, length: number): string {
  const end = Math.min(line.length, start + length);
  let from = Math.max(0, start - contextBefore);
  let to = Math.min(line.length, end + contextAfter);
  if (from > 0) {
    const space = line.indexOf(' ', from);
    from = space !== -1 && space < start ? space + 1 : start;
  }
  if (to < line.length) {
    const space = line.lastIndexOf(' ', to);
    to = space >= end ? space : to;
  }
  const text = line.slice(from, to).trim();
  return `${from > 0 && line.slice(0, from).trim() !== '' ? '… ' : ''}${text}${to < line.length && line.slice(to).trim() !== '' ? ' …' : ''}`;
}
