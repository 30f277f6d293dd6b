import { maxSelectionChars, type NoteSelection } from '../../../../shared/selection-domain';

/** What the viewer's selection holds, where it is on screen, and whether it may be asked about. */
export interface ViewerSelection {
  selection: NoteSelection;
  /** Where the selection ends on screen, for the bar. */
  rect: DOMRect;
  /** Why it cannot be sent, in words; null when it can. */
  refused: string | null;
}

/**
 * The selection inside the note's rendered body (`body`, the note's own article), or null when there is
 * none, it is only whitespace, or it reaches outside the body (the links below it, the chat). Text of
 * an embedded note is taken as rendered, and the embedded notes it comes from are named.
 */
export function viewerSelection(
  body: HTMLElement,
  path: string,
  selection: Selection | null,
): ViewerSelection | null {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = clippedToEnd(body, selection.getRangeAt(0));
  if (!range) return null;
  const text = range.toString();
  if (text.trim() === '') return null;
  const embeds = [...body.querySelectorAll<HTMLElement>('.note-embed[data-path]')]
    .filter((embed) => range.intersectsNode(embed))
    .map((embed) => embed.dataset.path!)
    .filter((embed, index, all) => embed !== path && all.indexOf(embed) === index);
  const rects = range.getClientRects();
  const rect = rects[rects.length - 1] ?? range.getBoundingClientRect();
  return {
    selection: {
      path,
      heading: headingBefore(body, range.startContainer),
      text,
      ...(embeds.length > 0 ? { embeds } : {}),
    },
    rect,
    refused:
      text.length > maxSelectionChars
        ? `The selection is longer than ${maxSelectionChars.toLocaleString('en')} characters; select a shorter passage.`
        : null,
  };
}

/**
 * The selected range within `body`: null when it starts outside it. A range reaching past the body's
 * end is cut there — a triple click on the note's last paragraph ends at the start of what follows.
 */
function clippedToEnd(body: HTMLElement, selected: Range): Range | null {
  if (!body.contains(selected.startContainer)) return null;
  if (body.contains(selected.endContainer)) return selected;
  const range = selected.cloneRange();
  range.setEnd(body, body.childNodes.length);
  return range;
}

/** The note's own heading the point `node` stands under (an embedded note's headings are not its own). */
function headingBefore(body: HTMLElement, node: Node): string | null {
  let found: string | null = null;
  for (const heading of body.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')) {
    if (heading.closest('.note-embed')) continue;
    const position = heading.compareDocumentPosition(node);
    if (!(position & Node.DOCUMENT_POSITION_FOLLOWING) && !heading.contains(node)) break;
    found = heading.textContent?.trim() || found;
  }
  return found;
}
