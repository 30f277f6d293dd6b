import type { BlockFact, HeadingFact } from '../markdown/note-facts';
import { headingKey, lastSegment } from './link-keys';

interface SubpathTarget {
  path: string;
  headings: HeadingFact[];
  blocks: BlockFact[];
}

/**
 * Finds the heading (`Heading`, `H1#H2`) or block (`^id`) a subpath names. For a heading path the last
 * segment must match a heading and the earlier ones its ancestors, in order (not necessarily adjacent).
 */
export function findSubpath(
  note: SubpathTarget,
  subpath: string,
  headingKeys: readonly string[] = note.headings.map((heading) => headingKey(heading.text)),
): { line: number | null; reason: string | null } {
  const name = lastSegment(note.path).replace(/\.md$/i, '');
  if (subpath.startsWith('^')) {
    const id = subpath.slice(1).trim().toLowerCase();
    const block = note.blocks.find((candidate) => candidate.id.toLowerCase() === id);
    return block
      ? { line: block.line, reason: null }
      : { line: null, reason: `No block ^${id} in “${name}”.` };
  }
  const segments = subpath
    .split('#')
    .map(headingKey)
    .filter((segment) => segment !== '');
  if (segments.length === 0) return { line: null, reason: null };
  const wanted = segments[segments.length - 1]!;
  const ancestors: { level: number; key: string }[] = [];
  for (let index = 0; index < note.headings.length; index++) {
    const { level, line } = note.headings[index]!;
    const key = headingKeys[index]!;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1]!.level >= level) ancestors.pop();
    if (key === wanted && isSubsequence(segments.slice(0, -1), ancestors)) return { line, reason: null };
    ancestors.push({ level, key });
  }
  const shown = subpath.split('#').join(' › ');
  return { line: null, reason: `No heading “${shown}” in “${name}”.` };
}

function isSubsequence(segments: string[], ancestors: { key: string }[]): boolean {
  let next = 0;
  for (const ancestor of ancestors) {
    if (next < segments.length && ancestor.key === segments[next]) next++;
  }
  return next === segments.length;
}
