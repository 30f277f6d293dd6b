import { setImmediate as nextTurn } from 'node:timers/promises';
import type { getDocumentProxy } from 'unpdf';
import { importOnFirstUse } from '../lazy-import';

/** pdf.js, through unpdf, loaded by the first PDF: a text file is read without it. */
const pdfReader = importOnFirstUse('the PDF reader (unpdf)', () => import('unpdf'));

/** The text of each page read (null: no text on it, undefined: it could not be read), or why none was. */
export type PdfPages =
  | { ok: true; pageCount: number; pages: (string | null | undefined)[] }
  | { ok: false; code: 'pdf-encrypted' | 'pdf-corrupt' };

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type TextContent = Awaited<ReturnType<Awaited<ReturnType<PdfDocument['getPage']>>['getTextContent']>>;

// pdf.js's own classes do not cross its fake worker, only their names do.
function isPasswordError(error: unknown): boolean {
  return error instanceof Error && error.name === 'PasswordException';
}

function pageText(content: TextContent): string | null {
  const joined = content.items
    .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
    .join('');
  const text = joined
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text === '' ? null : text;
}

async function readPage(document: PdfDocument, number: number): Promise<string | null | undefined> {
  try {
    const page = await document.getPage(number);
    const text = pageText(await page.getTextContent());
    page.cleanup();
    return text;
  } catch {
    // One broken page (a damaged content stream) is marked in the text; the rest of the document still counts.
    return undefined;
  }
}

/**
 * Reads the text of a PDF's pages in order, in the calling thread, until `maxCharacters` are gathered.
 * Rejects only when `signal` aborts between two pages.
 */
export async function readPdfPages(
  bytes: Uint8Array,
  maxCharacters: number,
  signal?: AbortSignal,
): Promise<PdfPages> {
  const { getDocumentProxy } = await pdfReader();
  let document: PdfDocument;
  try {
    // pdf.js takes over the whole buffer under the bytes, which for a Node Buffer is a shared pool:
    // it gets a copy of its own (Buffer's `slice` would be a view).
    document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    return { ok: false, code: isPasswordError(error) ? 'pdf-encrypted' : 'pdf-corrupt' };
  }
  try {
    const pages: (string | null | undefined)[] = [];
    let characters = 0;
    while (pages.length < document.numPages && characters <= maxCharacters) {
      // pdf.js works in promise callbacks: without a turn of the event loop no timer or abort could fire.
      await nextTurn();
      signal?.throwIfAborted();
      const text = await readPage(document, pages.length + 1);
      pages.push(text);
      characters += text?.length ?? 0;
    }
    if (pages.length > 0 && pages.every((text) => text === undefined))
      return { ok: false, code: 'pdf-corrupt' };
    return { ok: true, pageCount: document.numPages, pages };
  } finally {
    await document.loadingTask.destroy();
  }
}
