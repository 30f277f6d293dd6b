import type {
  HealthCounts,
  IndexReport,
  IndexWarning,
  LinkStatus,
  ResolvedLink,
} from '../../shared/index-domain';
import type { SqliteDatabase } from '../storage/database';

interface LinkRow {
  source: string;
  line: number;
  col: number;
  raw: string;
  kind: string;
  embed: number;
  target: string;
  subpath: string | null;
  display: string | null;
  resolved: string | null;
  status: string;
  candidates: string | null;
  via_alias: number;
  subpath_line: number | null;
  reason: string | null;
  context: string;
}

const linkColumns = `n.path AS source, l.line, l.col, l.raw, l.kind, l.embed, l.target, l.subpath, l.display,
  l.resolved, l.status, l.candidates, l.via_alias, l.subpath_line, l.reason, l.context`;

/** What the index is asked about links: all of them by status, a note's outgoing links, its backlinks. */
export class LinkReads {
  constructor(private readonly db: SqliteDatabase) {}

  counts(): Omit<IndexReport, 'warnings' | 'parsed' | 'ms'> {
    const totals = this.db
      .prepare<[], { notes: number; attachments: number; links: number }>(
        `SELECT (SELECT count(*) FROM notes) AS notes, (SELECT count(*) FROM attachments) AS attachments,
                (SELECT count(*) FROM links) AS links`,
      )
      .get()!;
    const { broken, aliasLinks, ambiguous, brokenSubpaths } = this.issueCounts();
    return { ...totals, broken: broken + aliasLinks, ambiguous, brokenSubpaths };
  }

  /**
   * How many links are broken (apart: those naming an alias), ambiguous or have a broken subpath (read
   * from the partial index links_issues, not by scanning every link), and how many warnings there are.
   */
  issueCounts(): Omit<HealthCounts, 'notices'> {
    return this.db
      .prepare<[], Omit<HealthCounts, 'notices'>>(
        `SELECT coalesce(sum(status = 'broken' AND via_alias = 0), 0) AS broken,
                coalesce(sum(status = 'broken' AND via_alias = 1), 0) AS aliasLinks,
                coalesce(sum(status = 'ambiguous'), 0) AS ambiguous,
                coalesce(sum(status = 'broken-subpath'), 0) AS brokenSubpaths,
                (SELECT count(*) FROM warnings) AS warnings
         FROM links WHERE status != 'resolved'`,
      )
      .get()!;
  }

  warnings(): IndexWarning[] {
    return this.db.prepare<[], IndexWarning>('SELECT path, message FROM warnings ORDER BY path, rowid').all();
  }

  /** Every link, in source order; only those with a status in `statuses` when given. */
  links(statuses?: LinkStatus[]): ResolvedLink[] {
    // `!= 'resolved'` lets SQLite read the few other links from the index links_issues.
    const where = statuses
      ? `WHERE l.status IN (SELECT value FROM json_each(?))${statuses.includes('resolved') ? '' : " AND l.status != 'resolved'"}`
      : '';
    const statement = this.db.prepare<unknown[], LinkRow>(
      `SELECT ${linkColumns} FROM links l JOIN notes n ON n.id = l.note_id ${where} ORDER BY n.path, l.line, l.col`,
    );
    const rows = statuses ? statement.all(JSON.stringify(statuses)) : statement.all();
    return rows.map(toResolvedLink);
  }

  /** The links with these row ids, in source order. */
  byIds(ids: readonly number[]): ResolvedLink[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare<[string], LinkRow>(
        `SELECT ${linkColumns} FROM links l JOIN notes n ON n.id = l.note_id
         WHERE l.id IN (SELECT value FROM json_each(?)) ORDER BY n.path, l.line, l.col`,
      )
      .all(JSON.stringify(ids))
      .map(toResolvedLink);
  }

  outgoing(path: string): ResolvedLink[] {
    return this.db
      .prepare<[string], LinkRow>(
        `SELECT ${linkColumns} FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = ? ORDER BY l.line, l.col`,
      )
      .all(path)
      .map(toResolvedLink);
  }

  /** Links from other notes (and from the note itself) that resolve to `path`. */
  backlinks(path: string): ResolvedLink[] {
    return this.db
      .prepare<[string], LinkRow>(
        `SELECT ${linkColumns} FROM links l JOIN notes n ON n.id = l.note_id
         WHERE l.resolved = ? AND l.status != 'broken' ORDER BY n.path, l.line, l.col`,
      )
      .all(path)
      .map(toResolvedLink);
  }
}

function toResolvedLink(row: LinkRow): ResolvedLink {
  return {
    source: row.source,
    line: row.line,
    column: row.col,
    raw: row.raw,
    kind: row.kind === 'markdown' ? 'markdown' : 'wikilink',
    embed: row.embed === 1,
    target: row.target,
    subpath: row.subpath,
    display: row.display,
    resolved: row.resolved,
    status: row.status as LinkStatus,
    candidates: row.candidates ? (JSON.parse(row.candidates) as string[]) : [],
    viaAlias: row.via_alias === 1,
    subpathLine: row.subpath_line,
    reason: row.reason,
    context: row.context,
  };
}
