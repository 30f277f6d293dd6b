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

/** The trimmed source line of each link, shown next to backlinks. */
export function linkContexts(source: string, links: { line: number }[]): string[] {
  const lines = source.split(/\r?\n/);
  return links.map((link) => (lines[link.line - 1] ?? '').trim().slice(0, 240));
}
