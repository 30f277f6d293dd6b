import type { LinkStatus } from '../../shared/index-domain';
import { keyHash } from '../../shared/links/link-keys';
import type { SqliteDatabase } from '../storage/database';

/** How a link resolved, as stored (candidates as JSON, flags as 0/1). */
export interface StoredResolution {
  resolved: string | null;
  status: LinkStatus;
  candidates: string | null;
  viaAlias: number;
  subpathLine: number | null;
  reason: string | null;
}

/** A link as the resolver needs it, with what it resolved to last time. */
export interface LinkToResolve extends StoredResolution {
  id: number;
  source: string;
  target: string;
  subpath: string | null;
}

export type LinkResolutionRow = StoredResolution & { id: number };

/** A resolver result in the shape the links table stores. */
export function storedResolution(resolution: {
  path: string | null;
  status: LinkStatus;
  candidates: string[];
  viaAlias: boolean;
  subpathLine: number | null;
  reason: string | null;
}): StoredResolution {
  return {
    resolved: resolution.path,
    status: resolution.status,
    candidates: resolution.candidates.length > 0 ? JSON.stringify(resolution.candidates) : null,
    viaAlias: resolution.viaAlias ? 1 : 0,
    subpathLine: resolution.subpathLine,
    reason: resolution.reason,
  };
}

export function sameResolution(a: StoredResolution, b: StoredResolution): boolean {
  return (
    a.resolved === b.resolved &&
    a.status === b.status &&
    a.candidates === b.candidates &&
    a.viaAlias === b.viaAlias &&
    a.subpathLine === b.subpathLine &&
    a.reason === b.reason
  );
}

const resolveSelect = `SELECT l.id, n.path AS source, l.target, l.subpath, l.resolved, l.status, l.candidates,
  l.via_alias AS viaAlias, l.subpath_line AS subpathLine, l.reason FROM links l JOIN notes n ON n.id = l.note_id`;

/** Reads links for the resolver and writes back what they resolve to now. */
export class LinkResolutions {
  private readonly updateResolution;

  constructor(private readonly db: SqliteDatabase) {
    this.updateResolution = db.prepare(
      `UPDATE links SET resolved = @resolved, status = @status, candidates = @candidates,
         via_alias = @viaAlias, subpath_line = @subpathLine, reason = @reason WHERE id = @id`,
    );
  }

  /** Links whose resolution may change: their key is affected, or they point at a changed file. */
  linksToResolve(scope: { keys: Iterable<string>; paths: Iterable<string> }): LinkToResolve[] {
    const select = resolveSelect;
    const keys = JSON.stringify([...new Set([...scope.keys].map(keyHash))]);
    const paths = JSON.stringify([...new Set(scope.paths)]);
    // A UNION of three indexed lookups: with OR, SQLite scans every link.
    return this.db
      .prepare<[string, string, string], LinkToResolve>(
        `${select} WHERE l.link_key IN (SELECT value FROM json_each(?))
         UNION ${select} WHERE l.resolved IN (SELECT value FROM json_each(?))
         UNION ${select} WHERE n.path IN (SELECT value FROM json_each(?))`,
      )
      .all(keys, paths, paths);
  }

  /** Every link, `limit` at a time after link id `afterId`: pages keep each query short. */
  linksPage(afterId: number, limit: number): LinkToResolve[] {
    return this.db
      .prepare<[number, number], LinkToResolve>(`${resolveSelect} WHERE l.id > ? ORDER BY l.id LIMIT ?`)
      .all(afterId, limit);
  }

  /** The links with these row ids, in id order. */
  linksById(ids: readonly number[]): LinkToResolve[] {
    // One JSON parameter rather than a placeholder per id: a page may exceed SQLite's variable limit.
    return this.db
      .prepare<[string], LinkToResolve>(
        `${resolveSelect} WHERE l.id IN (SELECT value FROM json_each(?)) ORDER BY l.id`,
      )
      .all(JSON.stringify(ids));
  }

  updateResolutions(rows: LinkResolutionRow[]): void {
    for (const row of rows) this.updateResolution.run(row);
  }
}
