import { parsePage } from './page-dom';

/** How far into a page a `<meta charset>` is looked for (the HTML standard says 1024 bytes; some put it later). */
const metaWindow = 4096;

function decoderFor(label: string | null): InstanceType<typeof TextDecoder> | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim());
  } catch {
    return null;
  }
}

/** The charset a page's own `<meta>` names, read with a DOM parser from the page's first bytes. */
function metaCharset(body: Buffer): string | null {
  // Every byte maps to one character in latin1, so the ASCII markup reads right whatever the charset.
  const document = parsePage(body.subarray(0, metaWindow).toString('latin1'));
  const direct = document.querySelector('meta[charset]')?.getAttribute('charset');
  if (direct) return direct;
  for (const meta of document.querySelectorAll('meta[http-equiv]')) {
    if (meta.getAttribute('http-equiv')?.toLowerCase() !== 'content-type') continue;
    const parameter = (meta.getAttribute('content') ?? '')
      .split(';')
      .map((part: string) => part.trim().split('='))
      .find(([name]) => name?.toLowerCase() === 'charset');
    if (parameter?.[1]) return parameter[1];
  }
  return null;
}

/**
 * A page's text in its own encoding: a byte order mark first, then the charset the server named, then
 * the page's `<meta>`; UTF-8 when none says (or names one the decoder does not know).
 */
export function pageText(body: Buffer, charset: string | null, html: boolean): string {
  const bom =
    body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf
      ? 'utf-8'
      : body[0] === 0xfe && body[1] === 0xff
        ? 'utf-16be'
        : body[0] === 0xff && body[1] === 0xfe
          ? 'utf-16le'
          : null;
  const decoder =
    decoderFor(bom) ??
    decoderFor(charset) ??
    (html ? decoderFor(metaCharset(body)) : null) ??
    new TextDecoder('utf-8');
  return decoder.decode(body);
}
