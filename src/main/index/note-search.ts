import type { SearchHit, SearchPage, SearchRequest, TagCount } from '../../shared/index-domain';
import type { SqliteDatabase } from '../storage/database';
import { ExactTitles } from './exact-title';
import { loosens, matchLevels, nodeExpression, wordsOf, type MatchLevel } from './search-expressions';
import type { RankedNote } from './ranking-task';
import { pageOf, scopeOf, SearchHits, type HitRun, type SearchScope } from './search-hits';
import { planSearch, type SearchPlan } from './search-plan';
import { queryWords, slowAsPrefix, someWordsTerms } from './search-query';
import { snippetTerms } from './search-snippet';
import { allButOne, SharedRanking, type PendingRanking, type SearchRankers } from './shared-ranking';
import { fewHits, someWordsMarking, SomeWordsRanking } from './some-words-ranking';
import { StatementCache } from './statement-cache';

export { maxQueryChars, maxQueryWords, queryWords, searchedWords } from './search-query';
export { highlightEnd, highlightStart } from './snippet-rows';
export type { SearchRankers } from './shared-ranking';

// bm25 weights for the FTS columns title, aliases, headings, body, title_stems, stems.
const weights = '10.0, 8.0, 4.0, 1.0, 9.0, 1.0';

/** The most hits a page may pass over, and the most a page may hold. */
const maxOffset = 10_000;
const maxLimit = 200;

/**
 * Full-text search over the index: Obsidian's query syntax (see search-syntax), ranked in tiers — the
 * notes the query names (title, file name or alias), then the notes holding every word whole, then as
 * prefixes, then by stems in the note's language; BM25 within each. When few notes hold every word, the
 * notes holding some of them follow.
 */
export class NoteSearch {
  private readonly ranking: SharedRanking;
  private readonly exact: ExactTitles;
  private readonly hits: SearchHits;
  private readonly someWordsRanking: SomeWordsRanking;
  private readonly statements: StatementCache;

  constructor(private readonly db: SqliteDatabase) {
    this.ranking = new SharedRanking(db);
    this.exact = new ExactTitles(db);
    this.hits = new SearchHits(db);
    this.someWordsRanking = new SomeWordsRanking(db, this.ranking, weights);
    this.statements = new StatementCache(db);
  }

  /** The hits of a search (a page of them with `offset`). */
  async search(request: SearchRequest, rankers: SearchRankers | null = null): Promise<SearchHit[]> {
    return (await this.page(request, rankers)).hits;
  }

  /**
   * A page of a search's hits and how many there are: the matches are counted, ranked tier by tier
   * until the page is full, and made into hits with snippets. With `rankers`, worker threads rank shares
   * of the notes. A fused search asks for `offset + limit` hits of this, so `limit` may pass a page's.
   */
  async page(
    { query, limit: asked = 20, offset: skipped = 0, folder, tag }: SearchRequest,
    rankers: SearchRankers | null = null,
  ): Promise<SearchPage> {
    const plan = planSearch(query, { folder, tag });
    if (!plan) return { hits: [], total: 0 };
    const limit = Math.max(1, Math.min(asked, maxOffset + maxLimit));
    const offset = Math.max(0, Math.min(skipped, maxOffset));
    const scope = scopeOf(plan);
    if (plan.ranked.length === 0) return this.hits.listing(scope, offset, limit);
    const named = this.named(plan, scope);
    const { runs, found, early } = await this.tiers(plan, scope, named.ids, offset + limit, rankers);
    // Counted only when the page ended before the last tier did: counting cost a fifth of a search.
    let total = found ?? this.count(scope, this.expression(plan, 'stem')) + named.outside;
    if (plan.someWords && total < fewHits) {
      const some = await this.someWordsRanking.after(plan.someWords, scope, runs, rankers, early);
      if (some) {
        runs.push(some);
        total += some.ranked.length;
      }
    }
    return { hits: this.hits.of(pageOf(runs, offset, limit)), total };
  }

  /**
   * The notes holding some of the words of `query`, best first, by the some-words ranking alone: for a
   * "more like this" query, whose words together only the note it was made from holds.
   */
  async someWords(query: string, limit: number, rankers: SearchRankers | null = null): Promise<SearchHit[]> {
    const terms = someWordsTerms(queryWords(query));
    if (terms.length === 0) return [];
    const scope: SearchScope = { from: 'notes_fts', where: '', parameters: [] };
    const ranked = await this.someWordsRanking.rank(terms, scope, new Set(), rankers);
    return this.hits.of([{ ...someWordsMarking(terms), ranked: ranked.slice(0, limit) }]);
  }

  tags(): TagCount[] {
    return this.db
      .prepare<[], TagCount>(
        'SELECT min(tag) AS tag, count(DISTINCT note_id) AS count FROM tags GROUP BY tag_key ORDER BY tag_key',
      )
      .all();
  }

  /**
   * The notes the query names (see ExactTitles): by its words, which such a note holds whole in its
   * title or an alias, and so matches as the query does but for its conditions; and, when the query reads
   * as syntax, by the text as typed (then only the request's own filters apply). The second kind may be
   * notes the query leaves out: `outside`.
   */
  private named(plan: SearchPlan, scope: SearchScope): { ids: number[]; outside: number } {
    const byWords = plan.title ? this.exact.find(plan.title, scope.where, scope.parameters) : [];
    if (!plan.typed) return { ids: byWords, outside: 0 };
    const requested = scopeOf({ ranked: plan.ranked, conditions: plan.requested });
    const typed = this.exact
      .find(plan.typed.words, requested.where, requested.parameters, plan.typed.text)
      .filter((id) => !byWords.includes(id));
    const inside = this.count(scope, this.expression(plan, 'stem'), typed);
    return { ids: [...typed, ...byWords], outside: typed.length - inside };
  }

  /** The FTS5 expression of the plan's ranked nodes at a level. */
  private expression(plan: SearchPlan, level: MatchLevel): string {
    return plan.ranked.map((node) => nodeExpression(node, level)).join(' AND ');
  }

  /**
   * The all-words hits, tier by tier, until `wanted` are found or every tier is read to its end: the
   * named notes first, then at each level the matches the tighter level did not find, by bm25. `found`:
   * how many notes match in all, when every tier was read to its end (else null). When the tightest
   * tier finds few notes, the workers' shares of the some-words ranking begin (`early`) and the looser
   * tiers are ranked without them: a question typed as a search mostly ends in the some-words ranking,
   * and the tiers, each a round trip to the workers, came first.
   */
  private async tiers(
    plan: SearchPlan,
    scope: SearchScope,
    named: readonly number[],
    wanted: number,
    rankers: SearchRankers | null,
  ): Promise<{ runs: HitRun[]; found: number | null; early: PendingRanking | null }> {
    const terms = snippetTerms(plan.marked);
    const whole = this.expression(plan, 'whole');
    const runs: HitRun[] = [];
    if (named.length > 0) {
      const ranked = this.scored(named, whole);
      runs.push({ ranked, ranker: 'all-words', match: 'title', expression: whole, terms });
    }
    const seen = new Set(named);
    let tighter: string | null = null;
    // A word being typed that is slow to match as a prefix costs every share the same: one worker ranks all.
    const slow = plan.ranked.flatMap(wordsOf).some((word) => !word.complete && slowAsPrefix(word));
    let ended = true;
    let early: PendingRanking | null = null;
    for (const level of matchLevels) {
      if (seen.size >= wanted) {
        ended = false;
        break;
      }
      if (level !== 'whole' && !loosens(plan.ranked, level)) continue;
      const expression = this.expression(plan, level);
      const exclude = tighter
        ? 'AND notes_fts.rowid NOT IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)'
        : '';
      const sql = `SELECT notes_fts.rowid AS id, -bm25(notes_fts, ${weights}) AS score FROM ${scope.from}
         WHERE notes_fts MATCH ? ${scope.where} ${exclude} AND notes_fts.rowid BETWEEN ? AND ?
         ORDER BY score DESC, notes_fts.rowid LIMIT ?`;
      const parameters = [expression, ...scope.parameters, ...(tighter ? [tighter] : [])];
      const limit = wanted - seen.size + named.length;
      const sharing = early ? allButOne(rankers) : rankers;
      const all = await this.ranking.rank(sql, parameters, limit, sharing, slow && level !== 'whole');
      if (all.length >= limit) ended = false;
      const ranked = all.filter(({ id }) => !seen.has(id));
      for (const { id } of ranked) seen.add(id);
      runs.push({ ranked, ranker: 'all-words', match: level, expression, stems: level === 'stem', terms });
      tighter = expression;
      if (level === 'whole' && plan.someWords && seen.size < fewHits && seen.size < wanted) {
        early = this.someWordsRanking.early(plan.someWords, scope, rankers);
      }
    }
    return { runs, found: ended ? seen.size : null, early };
  }

  /** The notes with the ids, each with its bm25 for `expression` (0 when it does not match), best first. */
  private scored(ids: readonly number[], expression: string): RankedNote[] {
    const sql = `SELECT rowid AS id, -bm25(notes_fts, ${weights}) AS score FROM notes_fts
       WHERE notes_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`;
    const rows = this.statements.get(sql).all(expression, JSON.stringify(ids)) as RankedNote[];
    const scores = new Map(rows.map(({ id, score }) => [id, score]));
    return ids
      .map((id) => ({ id, score: scores.get(id) ?? 0 }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** How many notes match `expression` within the scope (of the notes with the ids `among`, if given). */
  private count(scope: SearchScope, expression: string, among: readonly number[] | null = null): number {
    if (among?.length === 0) return 0;
    const within = among ? 'AND notes_fts.rowid IN (SELECT value FROM json_each(?))' : '';
    const sql = `SELECT count(*) AS count FROM ${scope.from} WHERE notes_fts MATCH ? ${scope.where} ${within}`;
    const parameters = [expression, ...scope.parameters, ...(among ? [JSON.stringify(among)] : [])];
    return (this.statements.get(sql).get(...parameters) as { count: number }).count;
  }
}
