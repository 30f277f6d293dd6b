import type { HealthGroup, HealthSummary } from '../../../../shared/health-domain';
import type { IndexWarning } from '../../../../shared/index-domain';

/** A section of the health view that folds: a kind of issue, the warnings, or the index's notices. */
export interface HealthSection {
  id: string;
  title: string;
  /** What the section holds, in words ("4,001 links to 1,200 targets"). */
  count: string;
}

/** One line of the health view as shown; `id` stays the same while the line does. */
export type HealthRow =
  | { type: 'section'; id: string; section: HealthSection; folded: boolean }
  | { type: 'group'; id: string; kind: string; group: HealthGroup; expanded: boolean }
  /** The `index`th link of a group, read when it comes into view. */
  | { type: 'link'; id: string; groupId: string; kind: string; group: HealthGroup; index: number }
  | { type: 'warning'; id: string; warning: IndexWarning }
  | { type: 'notice'; id: string; notice: string };

/** What the view shows besides the summary: which groups are open, which sections folded. */
export interface HealthRowState {
  expanded: ReadonlySet<string>;
  folded: ReadonlySet<string>;
}

export function groupId(kind: string, key: string): string {
  return `${kind}\n${key}`;
}

function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** The rows of the summary, in order: each section's heading, then (unless folded) its groups or items. */
export function healthRows(summary: HealthSummary, state: HealthRowState): HealthRow[] {
  const rows: HealthRow[] = [];
  const section = (id: string, title: string, count: string): boolean => {
    const folded = state.folded.has(id);
    rows.push({ type: 'section', id: `section\n${id}`, section: { id, title, count }, folded });
    return !folded;
  };
  if (
    summary.notices.length > 0 &&
    section('notices', 'Index', counted(summary.notices.length, 'notice', 'notices'))
  )
    summary.notices.forEach((notice, index) => rows.push({ type: 'notice', id: `notice\n${index}`, notice }));
  for (const { kind, title, links, groups } of summary.kinds) {
    const count = `${counted(links, 'link', 'links')} to ${counted(groups.length, 'target', 'targets')}`;
    if (!section(kind, title, count)) continue;
    for (const group of groups) {
      const id = groupId(kind, group.key);
      const expanded = state.expanded.has(id);
      rows.push({ type: 'group', id, kind, group, expanded });
      if (!expanded) continue;
      for (let index = 0; index < group.links; index++)
        rows.push({ type: 'link', id: `${id}\n${index}`, groupId: id, kind, group, index });
    }
  }
  const { warnings } = summary;
  if (warnings.length > 0 && section('warnings', 'Warnings', counted(warnings.length, 'file', 'files')))
    warnings.forEach((warning, index) =>
      rows.push({ type: 'warning', id: `warning\n${index}\n${warning.path}`, warning }),
    );
  return rows;
}

/** How a group is described: "Canvas — 4 notes share this name — 68 links in 30 notes". */
export function groupFacts(group: HealthGroup): string[] {
  const links = counted(group.links, 'link', 'links');
  return [
    ...(group.shared ? [group.shared] : []),
    group.notes < group.links ? `${links} in ${counted(group.notes, 'note', 'notes')}` : links,
  ];
}
