/** The data attribute that carries an element's inline style through markup. */
export const heldStyleAttribute = 'data-kasten-style';

function isStyleElement(node: Node): node is HTMLStyleElement | SVGStyleElement {
  return node instanceof HTMLStyleElement || node instanceof SVGStyleElement;
}

/**
 * Runs `draw` (a library drawing SVG into the element `#containerId` and reading it back as markup, as
 * Mermaid does) with its styles kept out of markup, where the CSP (`style-src 'self'`) refuses them and
 * reports each one; the CSSOM and constructed style sheets it allows:
 * - a `style` attribute set on an SVG element is set through the CSSOM instead;
 * - a <style> element is never inserted into the SVG; its rules apply while drawing (text is measured
 *   with them) through a constructed style sheet, and are returned as `css`;
 * - the container's markup, when read, carries inline styles in `data-kasten-style`, for the caller to
 *   set through the CSSOM again (parsing markup with a `style` attribute is refused too).
 * The DOM is patched only until `draw` settles.
 */
export async function withStylesOutOfMarkup<T>(
  containerId: string,
  draw: () => Promise<T>,
): Promise<{ result: T; css: string }> {
  const { setAttribute } = Element.prototype;
  const { insertBefore, appendChild } = Node.prototype;
  const innerHtml = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  const readInnerHtml = innerHtml?.get;
  if (!innerHtml || !readInnerHtml) throw new Error('This browser has no Element.innerHTML to wrap.');
  const held: (HTMLStyleElement | SVGStyleElement)[] = [];
  const sheet = new CSSStyleSheet();
  const css = () => held.map((style) => style.textContent).join('\n');
  const hold = (parent: Node, node: Node): boolean => {
    if (!(parent instanceof SVGElement) || !isStyleElement(node)) return false;
    held.push(node);
    sheet.replaceSync(css());
    return true;
  };

  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    if (this instanceof SVGElement && name.toLowerCase() === 'style') this.style.cssText = value;
    else setAttribute.call(this, name, value);
  };
  Node.prototype.insertBefore = function <N extends Node>(this: Node, node: N, child: Node | null): N {
    if (!hold(this, node)) insertBefore.call(this, node, child);
    return node;
  };
  Node.prototype.appendChild = function <N extends Node>(this: Node, node: N): N {
    if (!hold(this, node)) appendChild.call(this, node);
    return node;
  };
  Object.defineProperty(Element.prototype, 'innerHTML', {
    ...innerHtml,
    get(this: Element): string {
      if (this.id === containerId) {
        for (const element of this.querySelectorAll('[style]')) {
          setAttribute.call(element, heldStyleAttribute, element.getAttribute('style') ?? '');
          element.removeAttribute('style');
        }
      }
      return readInnerHtml.call(this) as string;
    },
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  try {
    const result = await draw();
    return { result, css: css() };
  } finally {
    Element.prototype.setAttribute = setAttribute;
    Node.prototype.insertBefore = insertBefore;
    Node.prototype.appendChild = appendChild;
    Object.defineProperty(Element.prototype, 'innerHTML', innerHtml);
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
  }
}
