import type { SqliteDatabase } from '../storage/database';
import { boostByCoverage } from './coverage-boost';
import type { RankedNote } from './ranking-task';
import { someWordsExpression, termExpression } from './search-expressions';
import type { HitRun, SearchScope } from './search-hits';
import { someWordsDiffer, someWordsTerms, type QueryWord, type SomeWordsTerm } from './search-query';
import { snippetTerms } from './search-snippet';
import type { PendingRanking, SearchRankers, SharedRanking } from './shared-ranking';

/** When fewer notes than this hold every word, the notes holding some follow. */
export const fewHits = 5;
/** How many of the best by bm25 the some-words ranking boosts, beyond the notes it skips. */
const someWordsCandidates = 100;

/**
 * The notes holding some of a query's words, after the few holding all of them (a question typed as a
 * search: no note holds "how", "do" and "I" with the words that matter).
 */
export class SomeWordsRanking {
  /** Which of some notes (a JSON array of ids) an expression matches. */
  private readonly holding;

  constructor(
    db: SqliteDatabase,
    private readonly ranking: SharedRanking,
    private readonly weights: string,
  ) {
    this.holding = db.prepare<[string, string], { id: number }>(
      'SELECT rowid AS id FROM notes_fts WHERE notes_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))',
    );
  }

  /**
   * The some-words candidates by bm25 (`rank`'s first step), begun early: the worker threads rank their
   * shares while the main thread goes on with the all-words tiers, and ranks its own share when they
   * are read (see `after`, which reads them when its runs skip at most `fewHits` notes). Null when the
   * words could find nothing more than the all-words tiers.
   */
  early(
    words: readonly QueryWord[],
    scope: SearchScope,
    rankers: SearchRankers | null,
  ): PendingRanking | null {
    const terms = someWordsTerms(words);
    if (!someWordsDiffer(words, terms)) return null;
    return this.ranking.begin(
      this.sql(scope),
      this.parameters(terms, scope),
      someWordsCandidates + fewHits,
      rankers,
    );
  }

  /**
   * The some-words run after the all-words `runs`, or null when its words could find nothing more.
   * With `early`, its candidates are those asked for beforehand.
   */
  async after(
    words: readonly QueryWord[],
    scope: SearchScope,
    runs: readonly HitRun[],
    rankers: SearchRankers | null,
    early: PendingRanking | null = null,
  ): Promise<HitRun | null> {
    const terms = someWordsTerms(words);
    if (!someWordsDiffer(words, terms)) return null;
    const skip = new Set(runs.flatMap((run) => run.ranked.map(({ id }) => id)));
    const ranked = await this.rank(terms, scope, skip, rankers, skip.size <= fewHits ? early : null);
    return ranked.length > 0 ? { ...someWordsMarking(terms), ranked } : null;
  }

  /**
   * The notes holding some of the terms, best first: bm25 over the terms joined by OR picks the
   * candidates (in SQL, with a limit: the boost is reckoned for those only), then the more of the terms
   * a candidate holds the higher it goes (see boostByCoverage).
   */
  async rank(
    terms: readonly SomeWordsTerm[],
    scope: SearchScope,
    skip: ReadonlySet<number>,
    rankers: SearchRankers | null,
    early: PendingRanking | null = null,
  ): Promise<RankedNote[]> {
    const asked = someWordsCandidates + skip.size;
    // The best `asked` of the early candidates are those a ranking limited to `asked` gives.
    const ranked = early
      ? (await early.finish()).slice(0, asked)
      : await this.ranking.rank(this.sql(scope), this.parameters(terms, scope), asked, rankers);
    const candidates = ranked.filter(({ id }) => !skip.has(id));
    if (terms.length === 1 || candidates.length === 0) return candidates;
    const ids = JSON.stringify(candidates.map(({ id }) => id));
    const held = new Map<number, number>();
    for (const term of terms) {
      for (const { id } of this.holding.all(termExpression(term), ids)) {
        held.set(id, (held.get(id) ?? 0) + 1);
      }
    }
    return boostByCoverage(candidates, held, terms.length);
  }

  private sql(scope: SearchScope): string {
    return `SELECT notes_fts.rowid AS id, -bm25(notes_fts, ${this.weights}) AS score FROM ${scope.from}
       WHERE notes_fts MATCH ? ${scope.where} AND notes_fts.rowid BETWEEN ? AND ?
       ORDER BY score DESC, notes_fts.rowid LIMIT ?`;
  }

  private parameters(terms: readonly SomeWordsTerm[], scope: SearchScope): (string | number)[] {
    return [someWordsExpression(terms), ...scope.parameters];
  }
}

/** How some-words hits are marked and snippeted. */
export function someWordsMarking(terms: readonly SomeWordsTerm[]): Omit<HitRun, 'ranked'> {
  return {
    ranker: 'some-words',
    expression: someWordsExpression(terms),
    terms: snippetTerms(terms.flatMap(({ tokens }) => tokens)),
  };
}
