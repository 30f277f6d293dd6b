import { looksBinary } from '../vault/binary-sniff';

/** Text decoded from a file's bytes, or why the bytes are not text. */
export type DecodedText =
  { ok: true; text: string; truncated: boolean } | { ok: false; reason: 'binary' | 'not-utf8' };

const controlSample = 8192;

// C0 controls but tab, line feed, vertical tab, form feed, carriage return and escape (ANSI logs), and DEL.
function isControl(code: number): boolean {
  return code < 0x09 || (code > 0x0d && code < 0x20 && code !== 0x1b) || code === 0x7f;
}

// Text whose first characters are more than 1% control characters is binary data that happens to decode.
function mostlyControls(text: string): boolean {
  const sample = Math.min(text.length, controlSample);
  let controls = 0;
  for (let index = 0; index < sample; index++) if (isControl(text.charCodeAt(index))) controls++;
  return controls * 100 > sample;
}

function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

// Decision on invalid UTF-8: up to one bad sequence per thousand characters is decoded as U+FFFD (a
// stray byte in a log, a file cut mid-character); more means another encoding such as Latin-1, which
// is refused with advice to save the file as UTF-8 rather than sent to the model as garbled text.
function decodeUtf8(bytes: Uint8Array, cut: boolean): string | null {
  // When only a prefix is decoded, `stream` leaves out a character it cut instead of calling it invalid.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes, { stream: cut });
    const replaced = text.match(/\uFFFD/g)?.length ?? 0;
    return replaced * 1000 <= text.length ? text : null;
  }
}

/** Cuts text to at most `max` UTF-16 units without splitting a surrogate pair. */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return { text: text.slice(0, end), truncated: true };
}

/**
 * Decodes UTF-8 (a BOM dropped) or UTF-16 with a BOM; line ends become `\n`. Only the bytes that can
 * fill `maxCharacters` are decoded: a 25 MB file costs no more than the text that is kept.
 */
export function decodeText(bytes: Uint8Array, maxCharacters: number): DecodedText {
  const utf16 = utf16Encoding(bytes);
  // A UTF-16 unit takes 2 bytes; one takes at most 3 in UTF-8 (4-byte characters are 2 units).
  const prefixLength = utf16 ? 2 + maxCharacters * 2 : maxCharacters * 3;
  const prefix = bytes.subarray(0, prefixLength);
  const cut = prefix.length < bytes.length;
  let text: string | null;
  if (utf16) {
    text = new TextDecoder(utf16).decode(prefix, { stream: cut });
    // A NUL marks binary data behind two bytes that look like a BOM, as it does in UTF-8 (looksBinary).
    if (text.slice(0, controlSample).includes('\u0000')) return { ok: false, reason: 'binary' };
  } else {
    if (looksBinary(bytes)) return { ok: false, reason: 'binary' };
    text = decodeUtf8(prefix, cut);
    if (text === null) return { ok: false, reason: 'not-utf8' };
  }
  if (mostlyControls(text)) return { ok: false, reason: 'binary' };
  const capped = capText(text.replace(/\r\n?/g, '\n'), maxCharacters);
  return { ok: true, text: capped.text, truncated: capped.truncated || cut };
}
