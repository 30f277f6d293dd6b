import { isProbablyReaderable, Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { parsePage } from './page-dom';

export interface PageArticle {
  title: string;
  markdown: string;
  /** Readability found an article; otherwise `markdown` is the page's whole body. */
  article: boolean;
}

/** Never part of what the model reads: code that runs, styles, embedded frames and forms. */
const dropped = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form'] as const;

function converter(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  turndown.remove([...dropped]);
  return turndown;
}

/** The page parsed as a browser would see it at `url` (relative links resolve against it). */
function documentAt(html: string, url: string) {
  const document = parsePage(html);
  if (!document.querySelector('base[href]')) {
    const base = document.createElement('base');
    base.setAttribute('href', url);
    document.head?.prepend(base);
  }
  return document;
}

/**
 * A page reduced to its article by Readability (Mozilla's, as Firefox's reader view) and written as
 * Markdown by Turndown; a page without an article gives its body's text. `null` when there is no text.
 */
export function pageArticle(html: string, url: string): PageArticle | null {
  const document = documentAt(html, url);
  const pageTitle = document.title?.trim() ?? '';
  // Readability's own test of whether a page has an article (as Firefox decides to offer reader view).
  const readable = isProbablyReaderable(document as never);
  const article = readable ? new Readability(document as never).parse() : null;
  const turndown = converter();
  if (article?.content) {
    const markdown = turndown.turndown(article.content).trim();
    if (markdown !== '') return { title: article.title?.trim() || pageTitle || url, markdown, article: true };
  }
  const body = documentAt(html, url).body;
  const markdown = body ? turndown.turndown(body as never).trim() : '';
  return markdown === '' ? null : { title: pageTitle || url, markdown, article: false };
}
