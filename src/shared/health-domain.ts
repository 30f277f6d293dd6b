import type { IndexWarning, LinkStatus, ResolvedLink } from './index-domain';

/**
 * The links of one kind of issue that name the same target: one row of the health view
 * ("Canvas — 24 notes share this name — 68 links").
 */
export interface HealthGroup {
  /** Names the group within its kind, for `health:links`. */
  key: string;
  /** The target as the first of its links writes it (`Canvas`, `Target#Nowhere`). */
  target: string;
  links: number;
  /** How many notes hold these links. */
  notes: number;
  /** What the target answers to, when several files do ("24 notes share this name"); else null. */
  shared: string | null;
  /** Why, when every link of the group is broken for the same reason; else null. */
  reason: string | null;
}

/**
 * One kind of issue: a link status other than `resolved`. Kinds are data: the index may report one the
 * page has no title for, and it is listed under its own name.
 */
export interface HealthKind {
  kind: Exclude<LinkStatus, 'resolved'> | 'alias' | (string & {});
  title: string;
  links: number;
  /** Most links first. */
  groups: HealthGroup[];
}

/** The vault's health, grouped: what the health view lists, without the links themselves. */
export interface HealthSummary {
  /** Only issues in notes under this folder; null: the whole vault. */
  folder: string | null;
  kinds: HealthKind[];
  warnings: IndexWarning[];
  /** What happened to the index itself (see VaultHealth.notices). */
  notices: string[];
}

/** A stretch of one group's links, in the order of their notes' paths and lines. */
export interface HealthLinkPage {
  links: ResolvedLink[];
  /** How many links the group holds now. */
  total: number;
}

const kindTitles: Record<string, string> = {
  broken: 'Broken links',
  alias: 'Links naming an alias',
  'broken-subpath': 'Broken headings and blocks',
  ambiguous: 'Ambiguous links',
};

/** The heading a kind is listed under; a kind without one is named by its own words. */
export function healthKindTitle(kind: string): string {
  const title = kindTitles[kind];
  if (title) return title;
  const words = kind.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Broken links first, then links naming an alias (broken too, with the link to write); ambiguous ones
 * resolve (to a guess), so they come last, after any other kind.
 */
export function healthKindRank(kind: string): number {
  const ranks: Record<string, number> = { broken: 0, alias: 1, 'broken-subpath': 2, ambiguous: 4 };
  return ranks[kind] ?? 3;
}
