import type { Element, ElementContent, Root, RootContent } from 'hast';

const blocks = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'blockquote', 'pre', 'table', 'tr']);
const trailingBlockId = /\s+\^[A-Za-z0-9-]+\s*$/;

/**
 * rehype plugin: gives block elements a `data-line` (their first source line) so the viewer can scroll
 * to a heading, a block or a linking line, and hides the `^block-id` that ends a paragraph or list item,
 * as Obsidian's reading view does.
 */
export function rehypeSourceLines() {
  return (tree: Root) => visit(tree.children);
}

function visit(children: (RootContent | ElementContent)[]): void {
  for (const child of children) {
    if (child.type !== 'element') continue;
    if (blocks.has(child.tagName) && child.position) child.properties.dataLine = child.position.start.line;
    if (child.tagName === 'p' || child.tagName === 'li') hideBlockId(child);
    visit(child.children);
  }
}

function hideBlockId(element: Element): void {
  const last = element.children.at(-1);
  if (last?.type === 'text' && trailingBlockId.test(last.value))
    last.value = last.value.replace(trailingBlockId, '');
}
