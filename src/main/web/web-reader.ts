import { maxAttachmentCharacters, type AttachmentText } from '../../shared/attachment-domain';
import type { AttachmentReader } from '../attachments/attachment-reader';
import { withoutMarkers } from '../images/image-marker';
import { neutralised } from '../mcp/mcp-tool-output';
import { importOnFirstUse } from '../lazy-import';
import { fetchPage, WebFetchError, type FetchOptions } from './page-fetch';

/** linkedom, Readability and Turndown load with the first page, not with the app. */
const readers = importOnFirstUse('the web page readers', () => import('./page-reading'));

export type WebReadResult = AttachmentText | { ok: false; message: string };

export interface WebReaderOptions {
  /** Reads a page that is a PDF, as a PDF attached to a message is read (in its own process). */
  pdf: Pick<AttachmentReader, 'read'>;
}

const htmlTypes = new Set(['text/html', 'application/xhtml+xml']);
const textTypes = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);

/** A readable name for a page without a title: its host and path. */
function addressName(url: URL): string {
  const path = decodeURIComponent(url.pathname).replace(/\/$/, '');
  return `${url.host}${path}`;
}

/**
 * Reads a web page for the model: fetched by the guarded fetch, an HTML page reduced to its article in
 * Markdown, plain text as it is, a PDF as an attached PDF is read; anything else, or a page that cannot be
 * fetched, is refused in a sentence.
 */
export async function readWebPage(
  address: string,
  fetch: FetchOptions,
  { pdf }: WebReaderOptions,
): Promise<WebReadResult> {
  let page;
  try {
    page = await fetchPage(address, fetch);
  } catch (error) {
    if (error instanceof WebFetchError) return { ok: false, message: error.message };
    throw error;
  }
  const url = new URL(page.url);
  const base = { ok: true as const, url: page.url, language: null, pages: null, bytes: page.body.length };
  if (
    page.mediaType === 'application/pdf' ||
    (page.mediaType === '' && page.body.subarray(0, 5).toString() === '%PDF-')
  ) {
    if (page.truncated)
      return {
        ok: false,
        message: `The PDF at ${page.url} is larger than Kasten reads from the web (${Math.round(page.body.length / 1048576)} MB).`,
      };
    const name = url.pathname.split('/').pop() || 'page.pdf';
    const read = await pdf.read(
      name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`,
      page.body,
      fetch.signal,
    );
    if (!read.ok) return { ok: false, message: `${page.url}: ${read.message}` };
    return { ...read, text: foreign(read.text), url: page.url };
  }
  const html = htmlTypes.has(page.mediaType) || page.mediaType === '';
  if (!html && !textTypes.has(page.mediaType))
    return { ok: false, message: `${page.url} is not a web page Kasten can read (it is ${page.mediaType}).` };
  const { pageArticle, pageText } = await readers();
  const text = pageText(page.body, page.charset, html);
  const read = html
    ? pageArticle(text, page.url)
    : { title: addressName(url), markdown: text.trim(), article: true };
  if (!read || read.markdown === '') return { ok: false, message: `${page.url} has no text to read.` };
  const cut = read.markdown.length > maxAttachmentCharacters;
  const intro = read.article ? '' : '[Kasten found no article on this page; this is all of its text.]\n\n';
  return {
    ...base,
    name: read.title,
    kind: 'web',
    text: foreign(`${intro}${cut ? read.markdown.slice(0, maxAttachmentCharacters) : read.markdown}`),
    truncated: cut || page.truncated,
  };
}

/**
 * A page is someone else's text: it must not close its tag, forge one of Kasten's, or name one of the
 * images Kasten keeps (a marker in a message's text is sent as that image).
 */
function foreign(text: string): string {
  return withoutMarkers(neutralised(text));
}
