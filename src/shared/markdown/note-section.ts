import { locateFrontmatter } from './frontmatter';

const fence = /^ {0,3}(`{3,}|~{3,})/;
const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]|$)/;

/**
 * The part of a note an embed shows: from the heading or block at `line` (1-based) to the end of its
 * section (a heading: up to the next heading of the same or a higher level; a block, whose line is
 * the last of its paragraph: back to the blank line before it), or the whole note without frontmatter when `line` is null. Lines outside the part are
 * blanked rather than cut, so line and column numbers — which the note's resolved links carry — still
 * match the rendered Markdown.
 */
export function embeddedSection(content: string, line: number | null): string {
  const lines = content.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const [from, to] =
    line === null ? [locateFrontmatter(lines).bodyStart, lines.length] : sectionRange(lines, line - 1);
  return lines.map((text, index) => (index >= from && index < to ? text : '')).join('\n');
}

/** [first, end) line indexes of the section starting at `start`. */
function sectionRange(lines: string[], start: number): [number, number] {
  const level = atxHeading.exec(lines[start] ?? '')?.[1]?.length;
  if (level === undefined) return blockRange(lines, start);
  let inFence: string | null = null;
  for (let index = start + 1; index < lines.length; index++) {
    const text = lines[index] ?? '';
    const marker = fence.exec(text)?.[1];
    if (marker && (inFence === null || marker.startsWith(inFence))) {
      inFence = inFence === null ? marker : null;
      continue;
    }
    if (inFence !== null) continue;
    const next = atxHeading.exec(text)?.[1]?.length;
    if (next !== undefined && next <= level) return [start, index];
  }
  return [start, lines.length];
}

function blockRange(lines: string[], end: number): [number, number] {
  let first = end;
  while (first > 0 && (lines[first - 1] ?? '').trim() !== '' && !atxHeading.test(lines[first - 1] ?? ''))
    first--;
  return [first, end + 1];
}
