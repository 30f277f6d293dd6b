import type { Nodes, Root } from 'mdast';

const comment = /^<!--[\s\S]*-->$/;

/** Drops HTML comments from a note as Obsidian's reading view does (without it they show as text). */
export function remarkHideComments() {
  return (tree: Root) => {
    hideIn(tree);
  };
}

function hideIn(node: Nodes): void {
  if (!('children' in node)) return;
  const children = node.children as Nodes[];
  for (let index = children.length - 1; index >= 0; index--) {
    const child = children[index]!;
    if (child.type === 'html' && comment.test(child.value.trim())) children.splice(index, 1);
    else hideIn(child);
  }
}
