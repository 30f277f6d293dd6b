import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import rehypeCallouts from 'rehype-callouts';
import { unified } from 'unified';

// Obsidian's types, icons, aliases (summary/tldr, hint, faq/help, caution, error, cite, ...) and folding
// with `-`/`+` as <details>, which folds without script.
const callouts = unified().use(rehypeCallouts, { theme: 'obsidian' }).freeze();
const transformCallouts = (tree: Root) => callouts.runSync(tree);
const calloutStart = /^\[!([\w-]+)\]([+-]?)[ \t]*/;

type Rewrite = (first: Text, paragraph: Element) => boolean;

/**
 * rehype plugin: Obsidian callouts, by rehype-callouts, with three of its departures from Obsidian mended
 * around it: a type it does not know stays a blockquote where Obsidian shows a note titled with the type
 * (`> [!recipe]` is a "Recipe" note); `[!constructor]` throws (it looks types up with `in`); and a
 * `[!type]` later in a quote's first line makes a callout of the quote, dropping the text before it.
 */
export function rehypeObsidianCallouts() {
  return (tree: Root) => {
    rewriteQuotes(tree.children, guard);
    transformCallouts(tree);
    // What it left as a blockquote but starts like a callout has a type it does not know.
    if (rewriteQuotes(tree.children, asNote)) transformCallouts(tree);
  };
}

/** Applies `rewrite` to the first text of every blockquote; says whether it changed any. */
function rewriteQuotes(children: (RootContent | ElementContent)[], rewrite: Rewrite): boolean {
  let changed = false;
  for (const child of children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'blockquote') {
      const paragraph = child.children.find((node): node is Element => node.type === 'element');
      const first = paragraph?.tagName === 'p' ? paragraph.children[0] : undefined;
      if (paragraph && first?.type === 'text' && rewrite(first, paragraph)) changed = true;
    }
    if (rewriteQuotes(child.children, rewrite)) changed = true;
  }
  return changed;
}

/** Hides a quote from rehype-callouts (which skips a paragraph that opens with an element) when needed. */
const guard: Rewrite = (first, paragraph) => {
  const match = calloutStart.exec(first.value);
  if (match) return (match[1] ?? '').toLowerCase() in Object.prototype && asNote(first, paragraph);
  if (!/\[![\w-]+\]/.test(first.value)) return false;
  paragraph.children[0] = { type: 'element', tagName: 'span', properties: {}, children: [first] };
  return true;
};

/** `[!recipe]- Title` → `[!note]- Title`, and `[!recipe]` → `[!note] Recipe`. */
const asNote: Rewrite = (first, paragraph) => {
  const match = calloutStart.exec(first.value);
  if (!match) return false;
  const [marker, type = '', fold = ''] = match;
  const rest = first.value.slice(marker.length);
  const next = paragraph.children[1];
  const titled = rest === '' ? next?.type === 'element' && next.tagName !== 'br' : !rest.startsWith('\n');
  const title = titled ? '' : type.charAt(0).toUpperCase() + type.slice(1).replace(/[-_]/g, ' ');
  first.value = `[!note]${fold} ${title}${rest}`;
  return true;
};
