import type { Nodes, Parent, Root } from 'mdast';

const htmlComment = /^<!--[\s\S]*-->$/;
const marker = '%%';

/** Whether the walk is inside a `%%` comment, carried across nodes and blocks in document order. */
interface Scan {
  open: boolean;
}

/**
 * Drops comments from a note as Obsidian's reading view does: `%%…%%` within a line or across blocks
 * (one never closed hides the rest of the note), and HTML comments. `%%` in code, math or raw HTML is
 * text, not a comment; a code block inside a comment is hidden with it.
 */
export function remarkHideComments() {
  return (tree: Root) => {
    hideIn(tree, { open: false });
  };
}

/** Hides what comments cover among `parent`'s children; says whether any of its content was hidden. */
function hideIn(parent: Parent, scan: Scan): boolean {
  let hid = false;
  const kept: Nodes[] = [];
  for (const child of parent.children as Nodes[]) {
    if (child.type === 'text') {
      const value = outsideComments(child.value, scan);
      if (value !== child.value) hid = true;
      if (value !== '') kept.push({ ...child, value });
      continue;
    }
    if ('children' in child) {
      const inside = scan.open;
      const lost = hideIn(child, scan);
      hid ||= lost || inside;
      // An element left with nothing to show (a paragraph that only held a comment) goes; a table
      // cell or list item a comment started in stays, keeping its row's columns or its bullet.
      const empty = child.children.every(isBlank);
      if (empty && (inside || (lost && !keptWhenEmpty.has(child.type)))) continue;
      kept.push(child);
      continue;
    }
    if (scan.open || (child.type === 'html' && htmlComment.test(child.value.trim()))) {
      hid = true;
      continue;
    }
    kept.push(child);
  }
  parent.children = kept as Parent['children'];
  return hid;
}

/** The parts of `value` outside `%%` comments; `scan` says whether it starts inside one, and ends so. */
function outsideComments(value: string, scan: Scan): string {
  let shown = '';
  let from = 0;
  for (;;) {
    const at = value.indexOf(marker, from);
    if (at === -1) return scan.open ? shown : shown + value.slice(from);
    if (!scan.open) shown += value.slice(from, at);
    scan.open = !scan.open;
    from = at + marker.length;
  }
}

const keptWhenEmpty: ReadonlySet<string> = new Set(['tableCell', 'listItem']);
const isBlank = (node: Nodes) => node.type === 'text' && node.value.trim() === '';
