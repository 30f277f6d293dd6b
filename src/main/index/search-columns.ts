import type { NoteFacts } from '../../shared/markdown/note-facts';
import { fileStem, titleWords } from './exact-title';
import { stemColumns, type StemColumns } from './search-stems';
import { separateWords } from './word-segments';

/** A note's text in the FTS columns: title (and file name), aliases, headings, body. */
export type SearchColumns = [title: string, aliases: string, headings: string, body: string];

/**
 * The title column: the title, and the file's name when the title does not hold its words in a row
 * (both find the note; a name written twice would weigh its words twice).
 */
function titleColumn(title: string, path: string): string {
  const name = fileStem(path);
  const held = ` ${titleWords(title).join(' ')} `.includes(` ${titleWords(name).join(' ')} `);
  return held ? title : `${title}\n${name}`;
}

/** The FTS columns of the note at `path` as its facts give them. */
export function searchColumns(facts: NoteFacts, path: string): SearchColumns {
  return [
    titleColumn(facts.title, path),
    facts.aliases.join('\n'),
    facts.headings.map((heading) => heading.text).join('\n'),
    facts.text,
  ];
}

/**
 * The FTS columns with the words of unspaced scripts separated (see word-segments), or null when no
 * column has such words: most notes, which then cross from the parse worker without a second copy.
 */
export function separatedSearchColumns(facts: NoteFacts, path: string): SearchColumns | null {
  const columns = searchColumns(facts, path);
  const separated = columns.map(separateWords) as SearchColumns;
  return separated.some((column, index) => column !== columns[index]) ? separated : null;
}

/** The note's stem columns (see search-stems), made in the parse worker. */
export function noteStems(facts: NoteFacts, path: string): StemColumns {
  return stemColumns(searchColumns(facts, path), facts.text);
}
