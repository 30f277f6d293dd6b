import type { SqliteDatabase } from '../storage/database';
import type { RankedNote, RankTask } from './ranking-task';
import { StatementCache } from './statement-cache';

/** Worker threads that can each rank a share of a search's matches (see IndexWorkers). */
export interface SearchRankers {
  readonly rankers: number;
  rank(task: RankTask): Promise<RankedNote[]>;
}

/** The rankers but one, which another ranking keeps busy; null when none is left. */
export function allButOne(rankers: SearchRankers | null): SearchRankers | null {
  if (!rankers || rankers.rankers <= 1) return null;
  return { rankers: rankers.rankers - 1, rank: (task) => rankers.rank(task) };
}

/** A ranking whose worker shares are under way (see SharedRanking.begin). */
export interface PendingRanking {
  finish(): Promise<RankedNote[]>;
}

/** Below this many notes a search is ranked on the main thread alone: sharing it costs more than it saves. */
export const minNotesToShare = 2000;
/** Each opening of an index, so that a worker's read connection is never to a file since rebuilt. */
let openings = 0;

const lowestId = Number.MIN_SAFE_INTEGER;
const highestId = Number.MAX_SAFE_INTEGER;

/** Best first; equal scores by note id, so a ranking split into shares merges to the same order. */
const byScore = (a: RankedNote, b: RankedNote) => b.score - a.score || a.id - b.id;

/**
 * Runs ranking SQL (its last three parameters: the lowest and highest note id, and the limit) over the
 * notes, in shares on worker threads when there are enough notes and workers.
 */
export class SharedRanking {
  /** Ranking statements by their SQL (one per combination of filters). */
  private readonly rankings: StatementCache<RankedNote>;
  private readonly changes;
  private readonly noteCount;
  private readonly idAtOffset;
  private readonly opening = ++openings;
  /** Note id ranges that split the notes into equal shares, until the index next changes. */
  private shares: { changes: number; parts: number; ranges: [number, number][] } | null = null;

  constructor(private readonly db: SqliteDatabase) {
    this.rankings = new StatementCache(db);
    this.changes = db.prepare<[], { changes: number }>('SELECT total_changes() AS changes');
    this.noteCount = db.prepare<[], { count: number }>('SELECT count(*) AS count FROM notes');
    this.idAtOffset = db.prepare<[number], { id: number }>(
      'SELECT id FROM notes ORDER BY id LIMIT 1 OFFSET ?',
    );
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
  async rank(
    sql: string,
    parameters: (string | number)[],
    limit: number,
    rankers: SearchRankers | null,
    whole = false,
  ): Promise<RankedNote[]> {
    return this.begin(sql, parameters, limit, rankers, whole).finish();
  }

  /**
   * A ranking begun: the worker threads' shares are asked now, and `finish` ranks the main thread's
   * share (all of it when there is no sharing) and merges them, so that the main thread can do other
   * work in between. A ranking never finished costs the workers only.
   */
  begin(
    sql: string,
    parameters: (string | number)[],
    limit: number,
    rankers: SearchRankers | null,
    whole = false,
  ): PendingRanking {
    const statement = this.rankings.get(sql);
    const ranges = rankers && rankers.rankers > 0 ? this.shareRanges(rankers.rankers + 1) : [];
    if (ranges.length < 2) {
      return { finish: async () => statement.all(...parameters, lowestId, highestId, limit) };
    }
    const shares: [number, number][] = whole
      ? [
          [lowestId, lowestId],
          [lowestId, highestId],
        ]
      : ranges;
    // A share a worker fails is ranked here when the ranking is finished (never, when it goes unread).
    const shared = shares.slice(1).map(([low, high]) => {
      const task = {
        file: this.db.name,
        opening: this.opening,
        sql,
        parameters: [...parameters, low, high, limit],
      };
      const ranked = rankers!.rank(task).then(
        (notes) => notes,
        () => null,
      );
      return async () => (await ranked) ?? statement.all(...task.parameters);
    });
    const [low, high] = shares[0]!;
    return {
      finish: async () => {
        const own = low === high ? [] : statement.all(...parameters, low, high, limit);
        return own
          .concat(...(await Promise.all(shared.map((share) => share()))))
          .sort(byScore)
          .slice(0, limit);
      },
    };
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
}
