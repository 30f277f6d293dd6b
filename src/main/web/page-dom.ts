import { parseHTML } from 'linkedom';

/** What Kasten uses of an element of a parsed page (the main process has no DOM types of its own). */
export interface PageElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  prepend(node: PageElement): void;
}

/** A page parsed by linkedom, as Readability and Turndown read it. */
export interface PageDocument {
  title: string;
  head: PageElement | null;
  body: PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  createElement(name: string): PageElement;
}

/** Parses HTML with linkedom, a DOM without a browser: nothing in the page runs or loads. */
export function parsePage(html: string): PageDocument {
  return (parseHTML(html) as unknown as { document: PageDocument }).document;
}
