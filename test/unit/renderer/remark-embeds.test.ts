import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { remarkEmbeds } from '../../../src/renderer/src/features/notes/remark-embeds';

function images(markdown: string) {
  const processor = unified().use(remarkParse).use(remarkEmbeds);
  const tree = processor.runSync(processor.parse(markdown)) as Root;
  const found: { url: string; title: string | null | undefined }[] = [];
  const walk = (node: { type: string; children?: unknown[]; url?: string; title?: string | null }) => {
    if (node.type === 'image') found.push({ url: node.url ?? '', title: node.title });
    node.children?.forEach((child) => walk(child as typeof node));
  };
  walk(tree);
  return found;
}

describe('embeds in rendered notes', () => {
  it('turns ![[file]] and ![[file|300]] into embeds', () => {
    expect(images('A ![[diagram.png]] and ![[photo.jpg|300]] here.')).toEqual([
      { url: 'kasten-embed:diagram.png', title: null },
      { url: 'kasten-embed:photo.jpg', title: '300' },
    ]);
  });

  it('leaves embeds inside code alone', () => {
    expect(images('`![[not-embed.png]]`\n\n```\n![[nor-this.png]]\n```')).toEqual([]);
  });
});
