import type { Data, Literal, Nodes, Parent, Root, Text } from 'mdast';
import { tagsAt } from '../../../../shared/markdown/text-rules';

/** An inline `#tag` in the Markdown tree. */
export interface TagNode extends Literal {
  type: 'tag';
  /** The tag without its `#` (`project/alpha`). */
  value: string;
  data?: Data;
}

declare module 'mdast' {
  interface PhrasingContentMap {
    tag: TagNode;
  }
  interface RootContentMap {
    tag: TagNode;
  }
}

/**
 * Inline `#tags` as tags, found by the rule the index uses (so every tag shown is one the index
 * counts): an `<a class="tag">` with the tag in `data-tag`, which the viewer makes a search for it.
 * Not within link text, code or raw HTML.
 */
export function remarkTags() {
  return (tree: Root) => tagsIn(tree);
}

function tagsIn(parent: Parent): void {
  const children = parent.children as Nodes[];
  for (let index = children.length - 1; index >= 0; index--) {
    const child = children[index]!;
    if (child.type === 'text') {
      const parts = withTags(child);
      if (parts) children.splice(index, 1, ...parts);
    } else if ('children' in child && child.type !== 'link' && child.type !== 'linkReference') {
      tagsIn(child);
    }
  }
}

function withTags(node: Text): Nodes[] | null {
  const tags = tagsAt(node.value);
  if (tags.length === 0) return null;
  const parts: Nodes[] = [];
  let from = 0;
  for (const { tag, index } of tags) {
    if (index > from) parts.push({ type: 'text', value: node.value.slice(from, index) });
    parts.push(tagNode(tag));
    from = index + 1 + tag.length;
  }
  if (from < node.value.length) parts.push({ type: 'text', value: node.value.slice(from) });
  return parts;
}

function tagNode(tag: string): TagNode {
  return {
    type: 'tag',
    value: tag,
    data: {
      hName: 'a',
      hProperties: { className: ['tag'], dataTag: tag },
      hChildren: [{ type: 'text', value: `#${tag}` }],
    },
  };
}
