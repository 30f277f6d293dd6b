import type { NoteFacts } from '../../shared/markdown/note-facts';
import { foldForSearch } from '../../shared/search/search-folding';
import type { SqliteDatabase } from '../storage/database';
import { isWordText, queryWordPattern } from './search-query';
import { StatementCache } from './statement-cache';
import { wordTokens } from './word-segments';

/** The folded words of a title, an alias or a file name, as a query's words are cut. */
export function titleWords(text: string): string[] {
  const words: string[] = [];
  for (const [word] of text.matchAll(queryWordPattern)) {
    if (isWordText(word)) words.push(...wordTokens(word).map(foldForSearch));
  }
  return words;
}

/** A title or a query as typed, compared character for character: folded, its spaces collapsed. */
export function typedText(text: string): string {
  return foldForSearch(text).replace(/\s+/g, ' ').trim();
}

/** The name of a note's file without its folder and `.md`. */
export const fileStem = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');

/** A note's names: its title, file name and aliases. */
const namesOf = (title: string, path: string, aliases: readonly string[]) => [
  title,
  fileStem(path),
  ...aliases,
];

/** The keys the `note_names` table holds for a note: each of its names' words, once (made in the parse worker). */
export function nameKeys(facts: NoteFacts, path: string): string[] {
  const keys = namesOf(facts.title, path, facts.aliases).map((name) => titleWords(name).join(' '));
  return [...new Set(keys.filter((key) => key !== ''))];
}

/**
 * The notes a query names: their title, file name or one of their aliases is the query's words, case
 * and accents aside (Obsidian's quick switcher finds a note so). Such a note comes before any other hit.
 * Looked up by key in `note_names`: matching the title phrase in FTS5 and ranking those matches cost more
 * than the rest of a search ("note" is in half the titles of a synthetic vault).
 */
export class ExactTitles {
  private readonly named;
  private readonly names;
  private readonly statements: StatementCache<{ id: number }>;

  constructor(db: SqliteDatabase) {
    this.statements = new StatementCache(db);
    this.named = db
      .prepare<[string], number>('SELECT DISTINCT note_id FROM note_names WHERE name = ? ORDER BY note_id')
      .pluck();
    this.names = db.prepare<[string], { id: number; path: string; title: string; aliases: string }>(
      `SELECT n.id, n.path, n.title,
         (SELECT json_group_array(alias) FROM aliases a WHERE a.note_id = n.id) AS aliases
       FROM notes n WHERE n.id IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * The ids of the notes named by `words` (folded) that meet `conditions` (SQL on `n`, a row of `notes`,
   * with its `parameters`). With `text`, a name must be that text as typed (see typedText).
   */
  find(
    words: readonly string[],
    conditions: string,
    parameters: readonly (string | number)[],
    text: string | null = null,
  ): number[] {
    let ids = this.named.all(words.join(' '));
    if (ids.length === 0) return [];
    if (text !== null) {
      const typed = this.names
        .all(JSON.stringify(ids))
        .filter(({ path, title, aliases }) =>
          namesOf(title, path, JSON.parse(aliases) as string[]).some((name) => typedText(name) === text),
        );
      ids = typed.map(({ id }) => id);
    }
    if (ids.length === 0 || conditions === '') return ids;
    return this.statements
      .get(`SELECT n.id AS id FROM notes n WHERE n.id IN (SELECT value FROM json_each(?)) ${conditions}`)
      .all(JSON.stringify(ids), ...parameters)
      .map(({ id }) => id);
  }
}
