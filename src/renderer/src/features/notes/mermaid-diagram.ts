import mermaid from 'mermaid';
import { heldStyleAttribute, withStylesOutOfMarkup } from './styles-out-of-markup';

/** A rendered diagram: the SVG (of this document, its inline styles set), and Mermaid's style sheet. */
export interface MermaidDiagram {
  svg: Element;
  css: string;
}

let renders = 0;
let configured: string | null = null;
/** Renders one at a time: each patches the DOM while Mermaid draws, and must restore it before the next. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Renders Mermaid source to an SVG element with labels at `fontSize` (the note's text size). Labels are
 * SVG text rather than HTML in <foreignObject> (`htmlLabels: false`): the sanitizing `strict` level.
 * Nothing Mermaid writes reaches the CSP as markup: see `withStylesOutOfMarkup`.
 */
export function renderMermaid(source: string, fontSize: string): Promise<MermaidDiagram> {
  const rendered = queue.then(() => render(source, fontSize));
  queue = rendered.catch(() => undefined);
  return rendered;
}

async function render(source: string, fontSize: string): Promise<MermaidDiagram> {
  const theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'default';
  if (configured !== `${theme} ${fontSize}`) {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme,
      themeVariables: { fontSize },
      htmlLabels: false,
      // Drawn at its own size (scrolling if wider than the note) rather than shrunk to the column.
      flowchart: { htmlLabels: false, useMaxWidth: false },
      sequence: { useMaxWidth: false },
      class: { useMaxWidth: false },
      state: { useMaxWidth: false },
      er: { useMaxWidth: false },
      // A syntax error is reported to the caller, not drawn as a bomb at the end of the page.
      suppressErrorRendering: true,
    });
    configured = `${theme} ${fontSize}`;
  }
  const id = `kasten-mermaid-${++renders}`;
  // Mermaid draws into `#d<id>` in the page, and reads the drawing back from it as markup.
  const { result, css } = await withStylesOutOfMarkup(`d${id}`, () => mermaid.render(id, source));
  const parsed = new DOMParser().parseFromString(result.svg, 'image/svg+xml').documentElement;
  return { svg: withInlineStyles(document.importNode(parsed, true)), css };
}

/** Sets the styles held in data attributes through the CSSOM, which the CSP allows. */
function withInlineStyles(svg: Element): Element {
  for (const element of [svg, ...svg.querySelectorAll(`[${heldStyleAttribute}]`)]) {
    const style = element.getAttribute(heldStyleAttribute);
    if (style === null || !(element instanceof SVGElement || element instanceof HTMLElement)) continue;
    element.style.cssText = style;
    element.removeAttribute(heldStyleAttribute);
  }
  return svg;
}
