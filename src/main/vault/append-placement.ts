import { findSubpath } from '../../shared/links/subpath';
import { extractNote } from '../../shared/markdown/extract-note';

/** Where lines appended to a note go, and the note's bytes with them in place. */
export interface AppendPlacement {
  /** The heading whose section the lines end, as the note spells it; null: the end of the note. */
  heading: string | null;
  /** The lines added, blank separator lines included. */
  added: string[];
  /** 1-based line of the first added line in the new note. */
  line: number;
  /** Up to three unchanged lines just before the added ones, and the one just after (if any). */
  before: string[];
  after: string[];
  /** The whole note with the lines added: every other byte exactly as it was. */
  bytes: Buffer;
}

const contextLines = 3;

/**
 * Places `content` at the end of the note (`heading` null) or at the end of a heading's section (before
 * the next heading of the same or a higher level, and before the blank lines that lead up to it). The
 * headings come from the Markdown parser, so a `#` line inside a code fence is not one. The note's bytes
 * are split, never decoded and re-encoded: a note that is not valid UTF-8 keeps its other bytes intact.
 * A blank line keeps the added text from running into the paragraph before or the heading after it;
 * the note's own line ending (LF, CRLF) is used. Throws an Error the model can act on.
 */
export function placeAppend(
  bytes: Buffer,
  path: string,
  content: string,
  heading: string | null,
): AppendPlacement {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const lines = linesOf(bytes);
  const shown = lines.map(({ start, end }) => bytes.subarray(start, end).toString('utf8'));
  if (shown[0]?.startsWith('\uFEFF')) shown[0] = shown[0].slice(1);
  const blank = (index: number) => (shown[index] ?? '').trim() === '';

  const newLines = content.split(/\r\n|\r|\n/);
  while (newLines.length > 0 && newLines.at(-1)!.trim() === '') newLines.pop();
  if (newLines.length === 0) throw new Error('There is nothing to append: the content is empty.');

  let at = lines.length;
  let found: string | null = null;
  if (heading !== null) {
    const wanted = heading.trim().replace(/^#+\s*/, '');
    if (wanted === '' || wanted.startsWith('^')) {
      throw new Error(`"${heading}" is not a heading: give the heading's text, such as "Ideas".`);
    }
    const { headings } = extractNote(text, path.split('/').at(-1) ?? path);
    const target = findSubpath({ path, headings, blocks: [] }, wanted);
    const index = headings.findIndex((entry) => entry.line === target.line);
    const section = headings[index];
    if (target.line === null || !section) throw new Error(target.reason ?? `No heading "${heading}".`);
    found = section.text;
    const next = headings.slice(index + 1).find((entry) => entry.level <= section.level);
    at = next ? next.line - 1 : lines.length;
    while (at > section.line && blank(at - 1)) at--;
  }

  const added = [...(at > 0 && !blank(at - 1) ? [''] : []), ...newLines];
  if (at < lines.length && !blank(at)) added.push('');
  const eol = lineEndingOf(bytes);
  const insert = Buffer.from(added.map((line) => line + eol).join(''), 'utf8');
  const offset = at < lines.length ? lines[at]!.start : bytes.length;
  // A last line without a line break gets one, so that the added lines start on their own.
  const lastByte = bytes.at(-1);
  const unended = at === lines.length && lastByte !== undefined && lastByte !== 0x0a && lastByte !== 0x0d;
  const joint = Buffer.from(unended ? eol : '', 'utf8');
  return {
    heading: found,
    added,
    line: at + 1,
    before: shown.slice(Math.max(0, at - contextLines), at),
    after: at < lines.length ? [shown[at]!] : [],
    bytes: Buffer.concat([bytes.subarray(0, offset), joint, insert, bytes.subarray(offset)]),
  };
}

interface LineSpan {
  /** Byte offsets: where the line starts and where its text ends (before its line break). */
  start: number;
  end: number;
}

/** The note's lines as byte spans; a line break after the last line does not start another. */
function linesOf(bytes: Buffer): LineSpan[] {
  const spans: LineSpan[] = [];
  let start = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte !== 0x0a && byte !== 0x0d) continue;
    const next = byte === 0x0d && bytes[index + 1] === 0x0a ? index + 2 : index + 1;
    spans.push({ start, end: index });
    start = next;
    index = next - 1;
  }
  if (start < bytes.length) spans.push({ start, end: bytes.length });
  return spans;
}

function lineEndingOf(bytes: Buffer): string {
  const newline = bytes.indexOf(0x0a);
  if (newline > 0 && bytes[newline - 1] === 0x0d) return '\r\n';
  if (newline === -1 && bytes.includes(0x0d)) return '\r';
  return '\n';
}
