import type { NoteFacts } from '../../shared/markdown/note-facts';
import { separateWords } from './word-segments';

/** A note's text in the FTS columns: title, aliases, headings, body. */
export type SearchColumns = [title: string, aliases: string, headings: string, body: string];

/** The FTS columns of a note as its facts give them. */
export function searchColumns(facts: NoteFacts): SearchColumns {
  return [
    facts.title,
    facts.aliases.join('\n'),
    facts.headings.map((heading) => heading.text).join('\n'),
    facts.text,
  ];
}

/**
 * The FTS columns with the words of unspaced scripts separated (see word-segments), or null when no
 * column has such words: most notes, which then cross from the parse worker without a second copy.
 */
export function separatedSearchColumns(facts: NoteFacts): SearchColumns | null {
  const columns = searchColumns(facts);
  const separated = columns.map(separateWords) as SearchColumns;
  return separated.some((column, index) => column !== columns[index]) ? separated : null;
}
