import { highlightedColumn, matchedColumn, searchSnippet } from './search-snippet';

/** Marks around matched terms in snippets; control characters cannot occur in a note's text. */
export const highlightStart = '\u0002';
export const highlightEnd = '\u0003';

const marks = { start: highlightStart, end: highlightEnd };

/** The FTS columns by index, and the order in which a snippet prefers them: the body says the most. */
const columnIndex = { title: 0, aliases: 1, headings: 2, body: 3 } as const;
const snippetColumns = ['body', 'headings', 'aliases', 'title'] as const;
/** Longer columns are not given to highlight(), whose cost grows with the square of their matches. */
const longColumn = 16_384;

/** A matched note's columns, marked by highlight() or, when long, as they are. */
export type SnippetRow = { id: number } & {
  [name in `${(typeof snippetColumns)[number]}_${'marked' | 'text'}`]: string | null;
};

/**
 * The SQL giving the snippet rows of the notes in `table` (an FTS5 table with the search index's columns)
 * that match an expression (first parameter), of those with the ids in a JSON array (second).
 */
export function snippetRowsSql(table: string, { marked = true }: { marked?: boolean } = {}): string {
  // Each column as highlight() marks it, or, when longer than `longColumn` (or not `marked`: the matches
  // are found by stems, which highlight() cannot see), as it is (see search-snippet).
  const column = (index: number, name: string) =>
    marked
      ? `CASE WHEN length(${name}) <= ${longColumn} THEN highlight(${table}, ${index}, '${highlightStart}', '${highlightEnd}') END AS ${name}_marked,
       CASE WHEN length(${name}) > ${longColumn} THEN ${name} END AS ${name}_text`
      : `NULL AS ${name}_marked, ${name} AS ${name}_text`;
  // `+rowid`: filter the matches rather than look each id up (which re-reads the prefix's terms).
  return `SELECT rowid AS id, ${snippetColumns.map((name) => column(columnIndex[name], name)).join(', ')}
       FROM ${table} WHERE ${table} MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`;
}

/** A hit's snippet from its row: the best passage of its best column, `terms` marked. */
export function snippetOf(
  row: SnippetRow,
  terms: string[],
  sameStem: ((word: string, term: string) => boolean) | null = null,
): string {
  const columns = snippetColumns.map((name) => {
    const marked = row[`${name}_marked`];
    return marked !== null
      ? highlightedColumn(marked, terms, marks)
      : matchedColumn(row[`${name}_text`] ?? '', terms, undefined, sameStem);
  });
  return searchSnippet(columns, terms, marks);
}
