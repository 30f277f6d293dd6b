/** The name of the CSS highlight that marks a passage a citation opened (`::highlight(kasten-passage)`). */
export const passageHighlight = 'kasten-passage';

/** How much of a passage's start finds it: enough to tell it apart, short enough to survive a cut preview. */
const findBy = 300;

/**
 * The passage in the rendered note under `root`, or null when it is not there (the note changed). The
 * passage is text as the viewer rendered it, so it is matched ignoring whitespace (line breaks between
 * blocks, spaces the renderer folded).
 */
export function findPassage(root: HTMLElement, passage: string): Range | null {
  const full = passage.replace(/\s+/g, '');
  const wanted = full.slice(0, findBy);
  if (wanted === '') return null;
  const places: { node: Text; offset: number }[] = [];
  let flat = '';
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data;
    for (let offset = 0; offset < text.length; offset++) {
      if (/\s/.test(text[offset]!)) continue;
      flat += text[offset];
      places.push({ node, offset });
    }
  }
  const at = flat.indexOf(wanted);
  if (at < 0) return null;
  const length = flat.startsWith(full, at) ? full.length : wanted.length;
  const start = places[at]!;
  const end = places[at + length - 1]!;
  const range = root.ownerDocument.createRange();
  range.setStart(start.node, start.offset);
  range.setEnd(end.node, end.offset + 1);
  return range;
}

/**
 * Marks the passage and scrolls it to the middle of the note; returns how to take the mark away, or
 * null when the passage is not in the note.
 */
export function showPassage(root: HTMLElement, passage: string): (() => void) | null {
  const range = findPassage(root, passage);
  if (!range) return null;
  const start = range.startContainer.parentElement;
  start?.scrollIntoView({ block: 'center' });
  if (typeof CSS !== 'undefined' && 'highlights' in CSS) {
    CSS.highlights.set(passageHighlight, new Highlight(range));
    return () => CSS.highlights.delete(passageHighlight);
  }
  start?.classList.add('flash');
  return () => start?.classList.remove('flash');
}
