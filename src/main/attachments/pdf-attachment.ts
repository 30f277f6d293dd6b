import {
  maxAttachmentCharacters,
  refuseAttachment,
  type AttachmentResult,
} from '../../shared/attachment-domain';
import { readPdfPages } from './pdf-pages';
import { capText } from './text-decoding';

/** The line that opens each page's text, so the model can cite pages. */
export function pageMarker(number: number): string {
  return `--- page ${number} ---`;
}

function pageBody(text: string | null | undefined): string {
  if (text === null) return '(no text on this page)';
  if (text === undefined) return '(this page could not be read)';
  return text;
}

/** Reads a PDF's text page by page, in the calling thread: the worker runs this. */
export async function readPdfAttachment(
  name: string,
  bytes: Uint8Array,
  signal?: AbortSignal,
  maxCharacters = maxAttachmentCharacters,
): Promise<AttachmentResult> {
  const read = await readPdfPages(bytes, maxCharacters, signal);
  if (!read.ok) return refuseAttachment(name, read.code);
  if (read.pages.every((text) => text === null)) return refuseAttachment(name, 'pdf-no-text');
  const joined = read.pages.map((text, index) => `${pageMarker(index + 1)}\n${pageBody(text)}`).join('\n\n');
  const capped = capText(joined, maxCharacters);
  return {
    ok: true,
    name,
    kind: 'pdf',
    language: null,
    text: capped.text,
    pages: read.pageCount,
    bytes: bytes.length,
    truncated: capped.truncated || read.pages.length < read.pageCount,
  };
}
