import {
  healthKindRank,
  healthKindTitle,
  type HealthGroup,
  type HealthKind,
  type HealthLinkPage,
} from '../../shared/health-domain';
import type { IndexWarning } from '../../shared/index-domain';
import { isNoteFile, lastSegment, nameKey, withoutMd } from '../../shared/links/link-keys';
import type { SqliteDatabase } from '../storage/database';
import type { LinkReads } from './link-reads';

/** What a group needs of a link that is not simply resolved: no context, no candidate list. */
interface IssueRow {
  id: number;
  status: string;
  target: string;
  subpath: string | null;
  resolved: string | null;
}

/** The links of one note written the same way with the same outcome, counted by SQLite. */
interface TargetRow extends Omit<IssueRow, 'id'> {
  note: number;
  links: number;
  /** The least and the greatest reason, and how many links have one. */
  reason: string | null;
  lastReason: string | null;
  reasons: number;
  shared: number;
  viaAlias: number;
}

/** Several reasons among a group's links: none is given for all of them. */
const mixed = Symbol('mixed');

/** A group as it is gathered, before it is told. */
interface Gathering {
  links: number;
  notes: Set<number>;
  reason: string | null | typeof mixed;
  /** How many links write the target each way. */
  spellings: Map<string, number>;
  /** The most files one of its links could mean, and one of them. */
  shared: number;
  sharedAs: TargetRow;
}

/** One group of one kind: the links of `kind` whose target has `key`. */
export interface HealthGroupQuery {
  kind: string;
  key: string;
  /** Only links in notes under this folder. */
  folder?: string | null;
  offset: number;
  limit: number;
}

/**
 * The vault's health grouped by kind and target, counted in the main process so that the page is sent
 * a few hundred groups rather than every one of 16k links; a group's links are read a page at a time.
 */
export class HealthIssues {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly links: LinkReads,
  ) {}

  /** Every kind of issue with its groups, most links first; only links in notes under `folder` when given. */
  kinds(folder: string | null): HealthKind[] {
    const kinds = new Map<string, Map<string, Gathering>>();
    for (const row of this.targetRows(folder)) {
      let groups = kinds.get(row.status);
      if (!groups) kinds.set(row.status, (groups = new Map()));
      const key = groupKey(row);
      const group = groups.get(key) ?? {
        links: 0,
        notes: new Set(),
        reason: reasonOf(row),
        spellings: new Map(),
        shared: 0,
        sharedAs: row,
      };
      groups.set(key, group);
      group.links += row.links;
      group.notes.add(row.note);
      if (group.reason !== reasonOf(row)) group.reason = mixed;
      const spelling = targetOf(row);
      group.spellings.set(spelling, (group.spellings.get(spelling) ?? 0) + row.links);
      if (row.shared > group.shared) Object.assign(group, { shared: row.shared, sharedAs: row });
    }
    return [...kinds]
      .map(([kind, groups]) => told(kind, groups))
      .sort((a, b) => healthKindRank(a.kind) - healthKindRank(b.kind) || compare(a.kind, b.kind));
  }

  /** A page of one group's links, in the order of their notes' paths and lines. */
  groupLinks(query: HealthGroupQuery): HealthLinkPage {
    const ids = this.issueRows(query.folder ?? null, query.kind)
      .filter((row) => groupKey(row) === query.key)
      .map((row) => row.id);
    return {
      links: this.links.byIds(ids.slice(query.offset, query.offset + query.limit)),
      total: ids.length,
    };
  }

  /** The warnings about files under `folder`, or all of them. */
  warnings(folder: string | null): IndexWarning[] {
    const warnings = this.links.warnings();
    if (folder === null) return warnings;
    return warnings.filter((warning) => warning.path.startsWith(`${folder}/`));
  }

  /**
   * The links that are not simply resolved (read from the partial index links_issues), counted per note
   * and per way of writing them: SQLite does the counting, the 16k links of a big vault become a few
   * thousand rows.
   */
  private targetRows(folder: string | null): TargetRow[] {
    const { where, parameters } = issueConditions(folder);
    return this.db
      .prepare<string[], TargetRow>(
        `SELECT ${kindOf} AS status, l.target, l.subpath, l.resolved, l.note_id AS note, count(*) AS links,
                min(l.reason) AS reason, max(l.reason) AS lastReason, count(l.reason) AS reasons,
                max(coalesce(json_array_length(l.candidates), 0)) AS shared, max(l.via_alias) AS viaAlias
         FROM links l ${folder === null ? '' : 'JOIN notes n ON n.id = l.note_id'}
         WHERE ${where} GROUP BY 1, l.target, l.subpath, l.resolved, l.note_id`,
      )
      .all(...parameters);
  }

  /** The links of `status` that are not simply resolved, in the order of their notes' paths and lines. */
  private issueRows(folder: string | null, status: string): IssueRow[] {
    const { where, parameters } = issueConditions(folder, status);
    return this.db
      .prepare<string[], IssueRow>(
        `SELECT l.id, ${kindOf} AS status, l.target, l.subpath, l.resolved
         FROM links l JOIN notes n ON n.id = l.note_id
         WHERE ${where} ORDER BY n.path, l.line, l.col`,
      )
      .all(...parameters);
  }
}

/**
 * A link's kind of issue: its status, except that a link naming an alias (broken in a note, as in
 * Obsidian) is a kind of its own, with the link to write instead.
 */
const kindOf = "CASE WHEN l.status = 'broken' AND l.via_alias = 1 THEN 'alias' ELSE l.status END";

/** The SQL that picks the issues, of one status when given, in notes under `folder` when given. */
function issueConditions(folder: string | null, status?: string) {
  const conditions = ["l.status != 'resolved'"];
  const parameters: string[] = [];
  if (status !== undefined) {
    conditions.push(`${kindOf} = ?`);
    parameters.push(status);
  }
  if (folder !== null) {
    conditions.push('substr(n.path, 1, length(?)) = ?');
    parameters.push(`${folder}/`, `${folder}/`);
  }
  return { where: conditions.join(' AND '), parameters };
}

/** The reason all the row's links give, null when none does, `mixed` when they differ. */
function reasonOf(row: TargetRow): string | null | typeof mixed {
  if (row.reasons === 0) return null;
  return row.reasons === row.links && row.reason === row.lastReason ? row.reason : mixed;
}

/**
 * What the links of a group have in common: the target's name as links compare it, or for a broken
 * heading or block, the note and the subpath (the note has no such heading: that is what to fix).
 */
function groupKey(row: Omit<IssueRow, 'id'>): string {
  if (row.status === 'broken-subpath') {
    return `${row.resolved ?? nameKey(withoutMd(row.target.trim()))}#${nameKey((row.subpath ?? '').trim())}`;
  }
  return nameKey(withoutMd(row.target.trim()));
}

function told(kind: string, gatherings: Map<string, Gathering>): HealthKind {
  const groups: HealthGroup[] = [];
  let links = 0;
  for (const [key, group] of gatherings) {
    links += group.links;
    groups.push({
      key,
      target: mostWritten(group.spellings),
      links: group.links,
      notes: group.notes.size,
      shared: sharedBy(group),
      reason: group.reason === mixed ? null : group.reason,
    });
  }
  groups.sort((a, b) => b.links - a.links || compare(a.target, b.target));
  return { kind, title: healthKindTitle(kind), links, groups };
}

/** The way most links write the target; of equals, the first in code-point order. */
function mostWritten(spellings: Map<string, number>): string {
  let best = '';
  let most = 0;
  for (const [spelling, count] of spellings) {
    if (count > most || (count === most && compare(spelling, best) < 0)) [best, most] = [spelling, count];
  }
  return best;
}

function targetOf(row: Omit<IssueRow, 'id'>): string {
  if (row.status !== 'broken-subpath') return row.target;
  const note = row.target.trim() || withoutMd(lastSegment(row.resolved ?? ''));
  return `${note}#${row.subpath ?? ''}`;
}

function sharedBy({ shared, sharedAs }: Gathering): string | null {
  if (shared < 2) return null;
  const what = sharedAs.resolved !== null && !isNoteFile(sharedAs.resolved) ? 'files' : 'notes';
  return `${shared} ${what} ${sharedAs.viaAlias === 1 ? 'have this alias' : 'share this name'}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
