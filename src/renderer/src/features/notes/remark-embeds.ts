import type { Parent, PhrasingContent, Root, Text } from 'mdast';

/**
 * Bridge until the shared wikilink parser lands: CommonMark reads `![[x]]` as text (the `![` opens an
 * image label that never closes), so embeds are picked out of text nodes here. Text nodes never hold
 * code, so `![[x]]` inside code spans and fences stays literal.
 */
const embedPattern = /!\[\[([^\]\n]+)\]\]/g;

function splitText(node: Text): PhrasingContent[] | null {
  const parts: PhrasingContent[] = [];
  let last = 0;
  for (const match of node.value.matchAll(embedPattern)) {
    const [raw, inner = ''] = match;
    if (match.index > last) parts.push({ type: 'text', value: node.value.slice(last, match.index) });
    const [target = '', size] = inner.split('|');
    parts.push({
      type: 'image',
      url: `kasten-embed:${encodeURIComponent(target.trim())}`,
      alt: target.trim(),
      title: size?.trim() || null,
    });
    last = match.index + raw.length;
  }
  if (parts.length === 0) return null;
  if (last < node.value.length) parts.push({ type: 'text', value: node.value.slice(last) });
  return parts;
}

function visit(parent: Parent): void {
  for (let index = 0; index < parent.children.length; index++) {
    const child = parent.children[index];
    if (!child) continue;
    if (child.type === 'text') {
      const parts = splitText(child);
      if (parts) {
        parent.children.splice(index, 1, ...parts);
        index += parts.length - 1;
      }
    } else if ('children' in child) {
      visit(child);
    }
  }
}

export function remarkEmbeds() {
  return (tree: Root) => visit(tree);
}
