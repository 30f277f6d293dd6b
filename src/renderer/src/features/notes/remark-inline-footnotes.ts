import type { FootnoteDefinition, Nodes, Parent, PhrasingContent, Root, Text } from 'mdast';

const opening = '^[';
/** Not a label a note would write for a footnote of its own (`[^…]`). */
const identifierPrefix = 'inline-footnote-';

/**
 * `^[An inline footnote.]` (Pandoc's syntax, which Obsidian's reading view reads) as a footnote: a
 * numbered reference where it is written, its text among the note's other footnotes at the end,
 * numbered with them in the order they are referenced. Brackets inside it nest (`^[see [a]]`);
 * wikilinks and formatting inside it render as anywhere else. Runs after comments are hidden.
 */
export function remarkInlineFootnotes() {
  return (tree: Root) => {
    const definitions: FootnoteDefinition[] = [];
    footnotesIn(tree, definitions);
    tree.children.push(...definitions);
  };
}

function footnotesIn(parent: Parent, definitions: FootnoteDefinition[]): void {
  const children = parent.children as Nodes[];
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.type === 'text') {
      if (takeFootnote(children, index, definitions)) index--;
    } else if ('children' in child && child.type !== 'link' && child.type !== 'linkReference') {
      footnotesIn(child, definitions);
    }
  }
}

/**
 * Turns the first `^[…]` starting in the text at `children[index]` (and closing in it or in a later
 * text among the same children) into a footnote reference; says whether it did.
 */
function takeFootnote(children: Nodes[], index: number, definitions: FootnoteDefinition[]): boolean {
  const start = children[index] as Text;
  for (let at = start.value.indexOf(opening); at !== -1; at = start.value.indexOf(opening, at + 1)) {
    const close = closingBracket(children, index, at + opening.length);
    if (!close) continue;
    const identifier = `${identifierPrefix}${definitions.length + 1}`;
    const closing = children[close.index] as Text;
    const content: Nodes[] =
      close.index === index
        ? [text(start.value.slice(at + opening.length, close.offset))]
        : [
            text(start.value.slice(at + opening.length)),
            ...children.slice(index + 1, close.index),
            text(closing.value.slice(0, close.offset)),
          ];
    definitions.push({
      type: 'footnoteDefinition',
      identifier,
      label: identifier,
      children: [{ type: 'paragraph', children: content.filter(isShown) as PhrasingContent[] }],
    });
    const replacement: Nodes[] = [
      text(start.value.slice(0, at)),
      { type: 'footnoteReference', identifier, label: identifier },
      text(closing.value.slice(close.offset + 1)),
    ];
    children.splice(index, close.index - index + 1, ...replacement.filter(isShown));
    return true;
  }
  return false;
}

/** Where the `]` closing a bracket opened just before `offset` in `children[index]` is, if anywhere. */
function closingBracket(
  children: Nodes[],
  index: number,
  offset: number,
): { index: number; offset: number } | null {
  let depth = 1;
  for (let at = index; at < children.length; at++) {
    const child = children[at]!;
    if (child.type !== 'text') continue;
    for (let position = at === index ? offset : 0; position < child.value.length; position++) {
      const character = child.value[position];
      if (character === '[') depth++;
      else if (character === ']' && --depth === 0) return { index: at, offset: position };
    }
  }
  return null;
}

const text = (value: string): Text => ({ type: 'text', value });
const isShown = (node: Nodes) => node.type !== 'text' || node.value !== '';
