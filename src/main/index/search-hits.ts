import type { SearchHit, SearchMatch, SearchPage } from '../../shared/index-domain';
import type { SqliteDatabase } from '../storage/database';
import { leadColumn, withLead } from '../storage/index-database';
import type { RankedNote } from './ranking-task';
import type { SearchPlan } from './search-plan';
import { sameStem } from './search-stems';
import { snippetOf, snippetRowsSql, type SnippetRow } from './snippet-rows';
import { StatementCache } from './statement-cache';

/** What a search's SQL selects from, and the conditions and values every query of it shares. */
export interface SearchScope {
  from: string;
  where: string;
  parameters: (string | number)[];
}

/** A run of hits found the same way. */
export interface HitRun {
  ranked: RankedNote[];
  ranker: SearchHit['ranker'];
  match?: SearchMatch;
  /** The expression the run's notes match, whose matches the snippets mark. */
  expression: string;
  /** Matched by stems too, which highlight() cannot see: words are marked in the text (see sameStem). */
  stems?: boolean;
  terms: string[];
}

/** The tables a plan's queries read, and its conditions (on `n`, the notes table, joined when needed). */
export function scopeOf(plan: Pick<SearchPlan, 'ranked' | 'conditions'>): SearchScope {
  const joined = plan.conditions.length > 0 || plan.ranked.length === 0;
  return {
    // Without conditions the notes table is read for the hits only, not joined to every match.
    from: joined ? 'notes_fts JOIN notes n ON n.id = notes_fts.rowid' : 'notes_fts',
    where: plan.conditions.map((condition) => `AND ${condition.sql}`).join(' '),
    parameters: plan.conditions.flatMap((condition) => condition.parameters),
  };
}

/** The hits from `offset`, `limit` of them, each run cut to its part of the page. */
export function pageOf(runs: readonly HitRun[], offset: number, limit: number): HitRun[] {
  const page: HitRun[] = [];
  let start = offset;
  let room = limit;
  for (const run of runs) {
    const taken = run.ranked.slice(start, start + room);
    start = Math.max(0, start - run.ranked.length);
    room -= taken.length;
    if (taken.length > 0) page.push({ ...run, ranked: taken });
  }
  return page;
}

/** Ranked notes made into hits: their titles and paths, and snippets marking what each matched. */
export class SearchHits {
  private readonly statements;
  private readonly notes;

  constructor(db: SqliteDatabase) {
    this.statements = new StatementCache(db);
    this.notes = db.prepare<[string], { id: number; path: string; title: string; lead: string }>(
      `SELECT n.id, n.path, n.title, ${leadColumn} FROM notes n ${withLead}
       WHERE n.id IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * The runs' notes as hits, with snippets. Snippets are made for these hits only: in one query with
   * the ranking, FTS5 made each snippet after the sort, at five times the cost.
   */
  of(runs: readonly HitRun[]): SearchHit[] {
    return runs.flatMap((run) => {
      if (run.ranked.length === 0) return [];
      const ids = JSON.stringify(run.ranked.map(({ id }) => id));
      const sql = snippetRowsSql('notes_fts', { marked: !run.stems });
      const rows = this.statements.get(sql).all(run.expression, ids) as SnippetRow[];
      const snippets = new Map(
        rows.map((row) => [row.id, snippetOf(row, run.terms, run.stems ? sameStem : null)]),
      );
      const notes = new Map(this.notes.all(ids).map((note) => [note.id, note]));
      return run.ranked.flatMap(({ id, score }): SearchHit[] => {
        const note = notes.get(id);
        if (!note) return [];
        const hit: SearchHit = {
          path: note.path,
          title: note.title,
          score,
          snippet: snippets.get(id) ?? '',
          ranker: run.ranker,
        };
        return [run.match ? { ...hit, match: run.match } : hit];
      });
    });
  }

  /** The notes the filters alone choose (`tag:work`), by path, each snippet its lead paragraph. */
  listing(scope: SearchScope, offset: number, limit: number): SearchPage {
    const where = `WHERE 1 ${scope.where}`;
    const ids = this.statements
      .get(`SELECT n.id AS id FROM notes n ${where} ORDER BY n.path LIMIT ? OFFSET ?`)
      .all(...scope.parameters, limit, offset)
      .map((row) => (row as { id: number }).id);
    const counted = this.statements.get(`SELECT count(*) AS count FROM notes n ${where}`);
    const { count } = counted.get(...scope.parameters) as { count: number };
    const notes = new Map(this.notes.all(JSON.stringify(ids)).map((note) => [note.id, note]));
    const hits = ids.flatMap((id): SearchHit[] => {
      const note = notes.get(id);
      return note
        ? [{ path: note.path, title: note.title, score: 0, snippet: note.lead, ranker: 'all-words' }]
        : [];
    });
    return { hits, total: count };
  }
}
