/**
 * A note's bytes as text an edit can search, and the way back from text to the note's own bytes: its
 * byte order mark, line ending and encoding are the note's, whatever the model wrote.
 */
export interface NoteText {
  /** The text after any byte order mark, line breaks as they are; a byte that is not UTF-8 is one U+FFFD. */
  text: string;
  /** Bytes before `text` starts: 3 for a UTF-8 byte order mark, else 0. */
  start: number;
  /** The note's first line break (LF when it has none). */
  eol: '\n' | '\r\n' | '\r';
  /**
   * How new text is written: UTF-8, unless the note has bytes that are not UTF-8 and no character that
   * is (then it is Latin-1, one byte a character, as notes from older editors are).
   */
  encoding: 'utf-8' | 'latin-1';
  /** Whether every byte is UTF-8: then text and bytes map one to one without walking. */
  valid: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const replacement = '\uFFFD';

/** Reads a note's bytes as text; see NoteText. */
export function noteText(bytes: Buffer): NoteText {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  const eol = lineEndingOf(body);
  try {
    return { text: strictUtf8.decode(body), start, eol, encoding: 'utf-8', valid: true };
  } catch {
    let text = '';
    let multibyte = false;
    for (let index = 0; index < body.length;) {
      const length = sequenceLength(body, index);
      if (length === 0) {
        text += replacement;
        index += 1;
      } else {
        text += body.subarray(index, index + length).toString('utf8');
        multibyte ||= length > 1;
        index += length;
      }
    }
    return { text, start, eol, encoding: multibyte ? 'utf-8' : 'latin-1', valid: false };
  }
}

/** The byte offset in the note of `index`, a UTF-16 position in `note.text`. */
export function byteOffset(note: NoteText, bytes: Buffer, index: number): number {
  if (note.valid) return note.start + Buffer.byteLength(note.text.slice(0, index), 'utf8');
  let units = 0;
  let offset = note.start;
  while (units < index && offset < bytes.length) {
    const length = sequenceLength(bytes, offset);
    // A four-byte character is two UTF-16 units; anything else one.
    units += length === 4 ? 2 : 1;
    offset += Math.max(length, 1);
  }
  return offset;
}

/**
 * `text` (line breaks in any form) as the note's bytes: its line ending, its encoding. Throws an Error
 * the model can act on when a Latin-1 note cannot hold a character of it.
 */
export function encodeText(note: NoteText, text: string): Buffer {
  const lines = text.replace(/\r\n|\r/g, '\n').replaceAll('\n', note.eol);
  if (note.encoding === 'utf-8') return Buffer.from(lines, 'utf8');
  const foreign = [...lines].find(
    (character) => character.codePointAt(0)! > 0xff || character === replacement,
  );
  if (foreign !== undefined) {
    throw new Error(
      foreign === replacement
        ? 'The note is not UTF-8, and the new text holds "\uFFFD", which stands for a byte Kasten cannot show; nothing was changed. Leave the characters shown as "\uFFFD" out of the passage and the new text.'
        : `The note is not UTF-8 (its other characters are Latin-1), and Latin-1 has no "${foreign}"; nothing was changed. Write the new text without it.`,
    );
  }
  return Buffer.from(lines, 'latin1');
}

/** Every line break in `text`, whatever its form, as \n. */
export function normalizeBreaks(text: string): string {
  return text.replace(/\r\n|\r/g, '\n');
}

/** The note's first line ending; LF when it has none. */
export function lineEndingOf(bytes: Buffer): '\n' | '\r\n' | '\r' {
  const newline = bytes.indexOf(0x0a);
  if (newline > 0 && bytes[newline - 1] === 0x0d) return '\r\n';
  if (newline === -1 && bytes.includes(0x0d)) return '\r';
  return '\n';
}

/** The length of the well-formed UTF-8 sequence at `index` (1–4), or 0 when the byte starts none. */
function sequenceLength(bytes: Buffer, index: number): number {
  const lead = bytes[index]!;
  if (lead < 0x80) return 1;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return continuation(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // No overlong forms (E0 80–9F) and no surrogates (ED A0–BF).
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}
