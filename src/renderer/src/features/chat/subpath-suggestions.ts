import type { NoteSubpaths } from '../../../../shared/index-domain';
import { foldForSearch } from '../../../../shared/search/search-folding';

/** A heading or block offered after `[[Note#` or `[[Note#^`. */
export interface SubpathSuggestion {
  /** What the row shows: the heading's text, or the block's id. */
  label: string;
  /** A second line: the heading's level, or the block's text. */
  detail: string;
  /** What choosing it writes after the `#`: `Heading` or `^block`. */
  subpath: string;
  level: number;
}

/** At most this many rows: the list stays above the composer; typing narrows it. */
const limit = 12;

/**
 * A heading as a link writes it: the characters a link cannot carry (`# | ^ : % [ ] \`) become spaces, as
 * Obsidian's links to headings read them (see headingKey).
 */
export function headingSubpath(text: string): string {
  return text
    .replace(/[#|^:%[\]\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Filters by what was typed, case and accents folded: exact, then starting with it, then containing it. */
function matching<Item>(items: readonly Item[], query: string, names: (item: Item) => string[]): Item[] {
  const wanted = foldForSearch(query.trim());
  const rank = (item: Item) => {
    const folded = names(item).map(foldForSearch);
    if (folded.includes(wanted)) return 0;
    if (folded.some((name) => name.startsWith(wanted))) return 1;
    return folded.some((name) => name.includes(wanted)) ? 2 : -1;
  };
  return items
    .map((item) => ({ item, rank: rank(item) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map((entry) => entry.item);
}

/** The note's headings matching `query`, in the note's order within each kind of match. */
export function headingSuggestions(subpaths: NoteSubpaths, query: string): SubpathSuggestion[] {
  return matching(subpaths.headings, query, (heading) => [heading.text]).map((heading) => ({
    label: heading.text,
    detail: `H${heading.level}`,
    subpath: headingSubpath(heading.text),
    level: heading.level,
  }));
}

/**
 * The note's blocks matching `query` by id or text; `lines` is the note's text by line, when read, for
 * each block's words (on the id's line, or the line above when the id stands alone).
 */
export function blockSuggestions(
  subpaths: NoteSubpaths,
  lines: readonly string[] | null,
  query: string,
): SubpathSuggestion[] {
  const textOf = (id: string, line: number) => {
    const own = (lines?.[line - 1] ?? '').replace(`^${id}`, '').trim();
    return own !== '' ? own : (lines?.[line - 2] ?? '').trim();
  };
  const blocks = subpaths.blocks.map((block) => ({ ...block, text: textOf(block.id, block.line) }));
  return matching(blocks, query, (block) => [block.id, block.text]).map((block) => ({
    label: `^${block.id}`,
    detail: block.text,
    subpath: `^${block.id}`,
    level: 0,
  }));
}
