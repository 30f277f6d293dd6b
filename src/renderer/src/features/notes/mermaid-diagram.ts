import mermaid from 'mermaid';

/** A rendered diagram: the SVG, and the style sheet Mermaid wrote into it, taken out. */
export interface MermaidDiagram {
  svg: Element;
  css: string;
}

let renders = 0;
let theme: 'default' | 'dark' | null = null;

/**
 * Renders Mermaid source to an SVG element. Labels are SVG text rather than HTML in <foreignObject>
 * (`htmlLabels: false`): the sanitizing `strict` level, and no inline HTML for the CSP to refuse.
 */
export async function renderMermaid(source: string): Promise<MermaidDiagram> {
  const wanted = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'default';
  if (theme !== wanted) {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: wanted,
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      // A syntax error is reported to the caller, not drawn as a bomb at the end of the page.
      suppressErrorRendering: true,
    });
    theme = wanted;
  }
  const { svg } = await mermaid.render(`kasten-mermaid-${++renders}`, source);
  const element = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  const styles = [...element.querySelectorAll('style')];
  for (const style of styles) style.remove();
  return { svg: element, css: styles.map((style) => style.textContent).join('\n') };
}
