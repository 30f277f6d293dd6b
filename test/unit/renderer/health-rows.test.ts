import { describe, expect, it } from 'vitest';
import {
  groupFacts,
  groupId,
  healthRows,
  type HealthRow,
} from '../../../src/renderer/src/features/health/health-rows';
import type { HealthGroup, HealthSummary } from '../../../src/shared/health-domain';

const group = (target: string, links: number, notes = links, shared: string | null = null): HealthGroup => ({
  key: target.toLowerCase(),
  target,
  links,
  notes,
  shared,
  reason: null,
});

const summary: HealthSummary = {
  folder: null,
  notices: ['The index was rebuilt.'],
  kinds: [
    { kind: 'broken', title: 'Broken links', links: 3, groups: [group('Nowhere', 2, 1), group('Gone', 1)] },
    {
      kind: 'ambiguous',
      title: 'Ambiguous links',
      links: 68,
      groups: [group('Canvas', 68, 30, '24 notes share this name')],
    },
  ],
  warnings: [{ path: 'odd/binary.md', message: 'A binary file.' }],
};

/** Each row as a line of text: what a reader would see, roughly. */
function shown(rows: HealthRow[]): string[] {
  return rows.map((row) => {
    if (row.type === 'section') return `${row.folded ? '▸' : '▾'} ${row.section.title}: ${row.section.count}`;
    if (row.type === 'group') return `  ${row.expanded ? '▾' : '▸'} ${row.group.target}`;
    if (row.type === 'link') return `    link ${row.index + 1}`;
    if (row.type === 'warning') return `  ${row.warning.path}`;
    return `  ${row.notice}`;
  });
}

describe('the rows of the health view', () => {
  it('lists the notices, each kind with its groups closed, then the warnings', () => {
    expect(shown(healthRows(summary, { expanded: new Set(), folded: new Set() }))).toEqual([
      '▾ Index: 1 notice',
      '  The index was rebuilt.',
      '▾ Broken links: 3 links to 2 targets',
      '  ▸ Nowhere',
      '  ▸ Gone',
      '▾ Ambiguous links: 68 links to 1 target',
      '  ▸ Canvas',
      '▾ Warnings: 1 file',
      '  odd/binary.md',
    ]);
  });

  it('lists one row per link of an open group, and nothing of a folded section', () => {
    const rows = healthRows(summary, {
      expanded: new Set([groupId('broken', 'nowhere'), groupId('ambiguous', 'canvas')]),
      folded: new Set(['ambiguous', 'notices']),
    });
    expect(shown(rows)).toEqual([
      '▸ Index: 1 notice',
      '▾ Broken links: 3 links to 2 targets',
      '  ▾ Nowhere',
      '    link 1',
      '    link 2',
      '  ▸ Gone',
      '▸ Ambiguous links: 68 links to 1 target',
      '▾ Warnings: 1 file',
      '  odd/binary.md',
    ]);
    // Ids stay unique, so the list keeps each row's measured height.
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });

  it('describes a group by what its target is shared with and how many links in how many notes', () => {
    expect(groupFacts(group('Canvas', 68, 30, '24 notes share this name'))).toEqual([
      '24 notes share this name',
      '68 links in 30 notes',
    ]);
    expect(groupFacts(group('Gone', 1))).toEqual(['1 link']);
    expect(groupFacts(group('Nowhere', 1200, 1200))).toEqual(['1,200 links']);
  });
});
