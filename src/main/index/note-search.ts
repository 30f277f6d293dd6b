import type { SearchHit, SearchRequest, TagCount } from '../../shared/index-domain';
import type { SqliteDatabase, SqliteStatement } from '../storage/database';
import { boostByCoverage } from './coverage-boost';
import type { RankedNote, RankTask } from './ranking-task';
import {
  allWordsExpression,
  queryWords,
  quickWordsExpression,
  someWordsDiffer,
  someWordsExpression,
  someWordsTerms,
  termExpression,
  type SomeWordsTerm,
} from './search-query';
import { AllWordsProbe } from './all-words-probe';
import { snippetTerms } from './search-snippet';
import { snippetOf, snippetRowsSql, type SnippetRow } from './snippet-rows';

export { maxQueryChars, maxQueryWords, queryWords, searchedWords } from './search-query';
export { highlightEnd, highlightStart } from './snippet-rows';

// bm25 weights for the FTS columns title, aliases, headings, body.
const weights = '10.0, 8.0, 4.0, 1.0';

/** When the notes holding every word are fewer than this (or than the limit), notes holding some follow. */
const fewHits = 5;
/** How many of the best by bm25 the some-words ranking boosts, beyond the notes it skips. */
const someWordsCandidates = 100;

/** Ranking SQL with a filter's conditions, and the values they take after the match expression. */
interface RankingFilter {
  sql: string;
  /** The ids of some notes matching, with the same conditions (see AllWordsProbe). */
  candidates: string;
  parameters: (string | number)[];
}

/** Worker threads that can each rank a share of a search's matches (see IndexWorkers). */
export interface SearchRankers {
  readonly rankers: number;
  rank(task: RankTask): Promise<RankedNote[]>;
}

/** Below this many notes a search is ranked on the main thread alone: sharing it costs more than it saves. */
const minNotesToShare = 2000;
/** Each opening of an index, so that a worker's read connection is never to a file since rebuilt. */
let openings = 0;

const lowestId = Number.MIN_SAFE_INTEGER;
const highestId = Number.MAX_SAFE_INTEGER;

/** Best first; equal scores by note id, so a ranking split into shares merges to the same order. */
const byScore = (a: RankedNote, b: RankedNote) => b.score - a.score || a.id - b.id;

/** Full-text search over the index, with folder and tag filters. */
export class NoteSearch {
  /** Ranking statements by their SQL (one per combination of filters); preparing cost 0.1 ms each. */
  private readonly rankings = new Map<string, SqliteStatement<(string | number)[], RankedNote>>();
  private readonly probe: AllWordsProbe;
  private readonly snippets;
  /** Which of some notes (a JSON array of ids) an expression matches. */
  private readonly holding;
  private readonly notes;
  private readonly changes;
  private readonly noteCount;
  private readonly idAtOffset;
  private readonly opening = ++openings;
  /** Note id ranges that split the notes into equal shares, until the index next changes. */
  private shares: { changes: number; parts: number; ranges: [number, number][] } | null = null;

  constructor(private readonly db: SqliteDatabase) {
    this.snippets = db.prepare<[string, string], SnippetRow>(snippetRowsSql('notes_fts'));
    this.probe = new AllWordsProbe(db);
    this.holding = db.prepare<[string, string], { id: number }>(
      'SELECT rowid AS id FROM notes_fts WHERE notes_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))',
    );
    this.notes = db.prepare<[string], { id: number; path: string; title: string }>(
      'SELECT id, path, title FROM notes WHERE id IN (SELECT value FROM json_each(?))',
    );
    this.changes = db.prepare<[], { changes: number }>('SELECT total_changes() AS changes');
    this.noteCount = db.prepare<[], { count: number }>('SELECT count(*) AS count FROM notes');
    this.idAtOffset = db.prepare<[number], { id: number }>(
      'SELECT id FROM notes ORDER BY id LIMIT 1 OFFSET ?',
    );
  }

  /**
   * Ranks first, then makes snippets for the hits only. In one query FTS5 made each snippet after the
   * sort at 0.27 ms a hit; in rowid order, for the chosen rows, at a fifth of that (a query matching all
   * 10k notes: 13 ms in one query, 9 ms in these three). With `rankers`, worker threads rank shares of
   * the notes while the main thread ranks its own (see rank). The notes holding every word come first;
   * when they are few, the notes holding some of the words follow (see rankSomeWords).
   */
  async search(
    { query, limit: asked = 20, folder, tag }: SearchRequest,
    rankers: SearchRankers | null = null,
  ): Promise<SearchHit[]> {
    const words = queryWords(query);
    if (words.length === 0) return [];
    const limit = Math.max(1, Math.min(asked, 200));
    const filter = this.filterOf(folder, tag);
    const allExpression = allWordsExpression(words);
    const holding = this.probe.holdingAll(words, allExpression, filter.candidates, filter.parameters);
    // Words slow to match cost every share the same again (see rank): one worker ranks all.
    const whole = quickWordsExpression(words) !== null;
    const all =
      holding?.size === 0
        ? []
        : await this.rank(filter.sql, [allExpression, ...filter.parameters], limit, rankers, whole);
    const hits = this.hitsOf(
      all,
      allExpression,
      snippetTerms(words.flatMap((word) => word.tokens)),
      'all-words',
      holding,
    );
    const terms = someWordsTerms(words);
    if (all.length >= Math.min(limit, fewHits) || !someWordsDiffer(words, terms)) return hits;
    const skip = new Set(all.map(({ id }) => id));
    const some = await this.rankSomeWords(terms, filter, limit - all.length, skip, rankers);
    const termTokens = terms.flatMap(({ tokens }) => tokens);
    return hits.concat(this.hitsOf(some, someWordsExpression(terms), snippetTerms(termTokens), 'some-words'));
  }

  /**
   * The notes holding some of the words of `query`, best first, by the some-words ranking alone: for a
   * "more like this" query, whose words together only the note it was made from holds (matching them
   * all first took a fifth of such a search).
   */
  async someWords(query: string, limit: number, rankers: SearchRankers | null = null): Promise<SearchHit[]> {
    const terms = someWordsTerms(queryWords(query));
    if (terms.length === 0) return [];
    const some = await this.rankSomeWords(
      terms,
      this.filterOf(undefined, undefined),
      limit,
      new Set(),
      rankers,
    );
    const termTokens = terms.flatMap(({ tokens }) => tokens);
    return this.hitsOf(some, someWordsExpression(terms), snippetTerms(termTokens), 'some-words');
  }

  /**
   * The notes holding some of the terms, best first: bm25 over the terms joined by OR picks the
   * candidates (in SQL, with a limit: the boost is reckoned for those only), then the more of the terms
   * a candidate holds the higher it goes (see boostByCoverage).
   */
  private async rankSomeWords(
    terms: readonly SomeWordsTerm[],
    filter: RankingFilter,
    limit: number,
    skip: ReadonlySet<number>,
    rankers: SearchRankers | null,
  ): Promise<RankedNote[]> {
    const parameters = [someWordsExpression(terms), ...filter.parameters];
    const ranked = await this.rank(filter.sql, parameters, someWordsCandidates + skip.size, rankers);
    const candidates = ranked.filter(({ id }) => !skip.has(id));
    if (terms.length === 1 || candidates.length === 0) return candidates.slice(0, limit);
    const ids = JSON.stringify(candidates.map(({ id }) => id));
    const held = new Map<number, number>();
    for (const term of terms) {
      for (const { id } of this.holding.all(termExpression(term), ids)) held.set(id, (held.get(id) ?? 0) + 1);
    }
    return boostByCoverage(candidates, held, terms.length).slice(0, limit);
  }

  /** The ranked notes as hits, with snippets marking what `expression` matched (`rows`: known already). */
  private hitsOf(
    ranked: readonly RankedNote[],
    expression: string,
    terms: string[],
    ranker: SearchHit['ranker'],
    rows: ReadonlyMap<number, SnippetRow> | null = null,
  ): SearchHit[] {
    if (ranked.length === 0) return [];
    const ids = JSON.stringify(ranked.map(({ id }) => id));
    // A note written since the probe (the ranking waits for workers) is read from the index.
    const known = ranked.flatMap(({ id }) => rows?.get(id) ?? []);
    const unknown = ranked.filter(({ id }) => !rows?.has(id)).map(({ id }) => id);
    const read = unknown.length > 0 ? this.snippets.all(expression, JSON.stringify(unknown)) : [];
    const snippets = new Map([...known, ...read].map((row) => [row.id, snippetOf(row, terms)]));
    const notes = new Map(this.notes.all(ids).map((note) => [note.id, note]));
    return ranked.flatMap(({ id, score }) => {
      const note = notes.get(id);
      return note
        ? [{ path: note.path, title: note.title, score, snippet: snippets.get(id) ?? '', ranker }]
        : [];
    });
  }

  /** The ranking SQL for a folder and a tag filter; its parameters follow the match expression. */
  private filterOf(folder: string | undefined, tag: string | undefined): RankingFilter {
    const filters: string[] = [];
    const parameters: (string | number)[] = [];
    if (folder) {
      filters.push("substr(n.path, 1, length(?) + 1) = ? || '/'");
      const prefix = folder.replace(/\/+$/, '');
      parameters.push(prefix, prefix);
    }
    if (tag) {
      const key = tag.replace(/^#/, '').toLowerCase();
      filters.push(
        "EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND (t.tag_key = ? OR substr(t.tag_key, 1, length(?) + 1) = ? || '/'))",
      );
      parameters.push(key, key, key);
    }
    // Without filters the notes table is read for the hits only, not joined to every match.
    const join = filters.length > 0 ? 'JOIN notes n ON n.id = notes_fts.rowid' : '';
    const where = `WHERE notes_fts MATCH ? ${filters.map((filter) => `AND ${filter}`).join(' ')}`;
    const sql = `SELECT notes_fts.rowid AS id, -bm25(notes_fts, ${weights}) AS score FROM notes_fts ${join}
         ${where} AND notes_fts.rowid BETWEEN ? AND ?
         ORDER BY score DESC, notes_fts.rowid LIMIT ?`;
    const candidates = `SELECT notes_fts.rowid AS id FROM notes_fts ${join} ${where} LIMIT ?`;
    return { sql, candidates, parameters };
  }

  /**
   * bm25 over every match is nearly all of a search's time (about 1 µs a match, 7–14 ms for a word in
   * all of 10k notes). Its statistics are the whole index's whichever notes are ranked, so shares of the
   * notes ranked at the same time on other threads, each keeping its best `limit`, merge to the very
   * ranking one query gives. A worker that fails leaves its share to the main thread. With `whole`, one
   * worker ranks every note while the main thread is free (a hybrid search scans the vectors meanwhile):
   * for an expression whose cost is merging the doclists of what its prefixes expand to, which each
   * share does in full ("the"* and "has"* in "which book chapter has the quote?": 10 of 12 ms a share).
   */
  private async rank(
    sql: string,
    parameters: (string | number)[],
    limit: number,
    rankers: SearchRankers | null,
    whole = false,
  ): Promise<RankedNote[]> {
    let ranking = this.rankings.get(sql);
    if (!ranking) {
      ranking = this.db.prepare(sql);
      this.rankings.set(sql, ranking);
    }
    const statement = ranking;
    const ranges = rankers && rankers.rankers > 0 ? this.shareRanges(rankers.rankers + 1) : [];
    if (ranges.length < 2) return statement.all(...parameters, lowestId, highestId, limit);
    const shares: [number, number][] = whole
      ? [
          [lowestId, lowestId],
          [lowestId, highestId],
        ]
      : ranges;
    const shared = shares.slice(1).map(([low, high]) => {
      const task = {
        file: this.db.name,
        opening: this.opening,
        sql,
        parameters: [...parameters, low, high, limit],
      };
      return rankers!.rank(task).catch(() => statement.all(...task.parameters));
    });
    const [low, high] = shares[0]!;
    const own = low === high ? [] : statement.all(...parameters, low, high, limit);
    return own
      .concat(...(await Promise.all(shared)))
      .sort(byScore)
      .slice(0, limit);
  }

  /** Id ranges holding equal numbers of notes; one range when there are too few notes to share. */
  private shareRanges(parts: number): [number, number][] {
    const { changes } = this.changes.get()!;
    if (this.shares?.changes === changes && this.shares.parts === parts) return this.shares.ranges;
    const { count } = this.noteCount.get()!;
    const ranges: [number, number][] = [];
    if (count >= minNotesToShare) {
      let low = lowestId;
      for (let part = 1; part < parts; part++) {
        const bound = this.idAtOffset.get(Math.floor((part * count) / parts))!.id;
        ranges.push([low, bound - 1]);
        low = bound;
      }
      ranges.push([low, highestId]);
    }
    this.shares = { changes, parts, ranges };
    return ranges;
  }

  tags(): TagCount[] {
    return this.db
      .prepare<[], TagCount>(
        'SELECT min(tag) AS tag, count(DISTINCT note_id) AS count FROM tags GROUP BY tag_key ORDER BY tag_key',
      )
      .all();
  }
}
