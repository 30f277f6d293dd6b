import type { DiffSegment } from '../../shared/chat-domain';
import { findSubpath } from '../../shared/links/subpath';
import type { HeadingFact } from '../../shared/markdown/note-facts';
// The index's parser: the same headings as the reference (fast-extract-differential.test.ts), 10× sooner.
import { fastExtractNote } from '../index/fast-extract';
import { editDiff } from './edit-diff';
import { byteOffset, encodeText, normalizeBreaks, noteText, type NoteText } from './note-text';
import { findPassage } from './passage-search';

/** What an edit replaces: one exact passage, or the text of a heading's section. */
export type EditTarget = { passage: string } | { heading: string };

/** An edit placed in a note: what the card shows, and the note's bytes with it. */
export interface EditPlacement {
  target: 'passage' | 'section';
  /** The heading of the section the change is in, as the note spells it; null: before any heading. */
  section: string | null;
  /** 1-based line where the diff starts. */
  line: number;
  diff: DiffSegment[];
  /** The whole note with the edit: every byte outside the replaced text exactly as it was. */
  bytes: Buffer;
}

/** The longest section text an edit replaces by its heading: past it the model names a passage. */
const maxSectionChars = 200_000;

/**
 * Replaces one passage of the note, or the text of one heading's section (everything under the heading
 * up to the next heading of its level or higher, less the blank lines around it; the heading stays).
 * The note's bytes are split where the text changes, never decoded and encoded again: its byte order
 * mark, line endings, encoding and frontmatter stay as they are, and the new text gets its line ending
 * and encoding. Throws an Error the model can act on.
 */
export function placeEdit(
  bytes: Buffer,
  path: string,
  target: EditTarget,
  replacement: string,
): EditPlacement {
  const note = noteText(bytes);
  const lines = lineStarts(note.text);
  const { headings } = fastExtractNote(note.text, path.split('/').at(-1) ?? path);
  const span =
    'passage' in target
      ? {
          ...findPassage(note.text, target.passage, path, (index) => where(index, lines, headings)),
          next: replacement,
        }
      : sectionSpan(note.text, path, target.heading, replacement, lines, headings);
  const old = note.text.slice(span.start, span.end);
  if (normalizeBreaks(old) === normalizeBreaks(span.next)) {
    throw new Error(
      `The new text is the same as the text it would replace in "${path}"; nothing would change.`,
    );
  }
  const replaced = spliced(note, bytes, span.start, old, span.next);

  // Shown: the section around the change, from its heading to the next heading after the change.
  const first = lineOf(span.start, lines);
  const last = lineOf(Math.max(span.start, span.end - 1), lines);
  const above = headings.filter((heading) => heading.line <= first + 1).at(-1);
  const below = headings.find((heading) => heading.line > last + 1);
  const from = above ? above.line - 1 : 0;
  const to = below ? lineEnd(note.text, lines, below.line - 2) : note.text.length;
  return {
    target: 'passage' in target ? 'passage' : 'section',
    section: 'heading' in span ? span.heading : (above?.text ?? null),
    line: from + 1,
    diff: editDiff(
      normalizeBreaks(note.text.slice(lines[from], span.start)),
      normalizeBreaks(old),
      normalizeBreaks(span.next),
      normalizeBreaks(note.text.slice(span.end, Math.max(span.end, to))),
    ),
    bytes: replaced,
  };
}

/**
 * The note's bytes with `old` (at `start` in its text) replaced by `next` in the note's line ending and
 * encoding. What the two share at their ends keeps its bytes, so that a character the text shows as
 * U+FFFD, or a line break of another form, is written back as it was when it is not changed.
 */
function spliced(note: NoteText, bytes: Buffer, start: number, old: string, next: string): Buffer {
  const written = normalizeBreaks(next).replaceAll('\n', note.eol);
  let prefix = 0;
  while (prefix < old.length && prefix < written.length && old[prefix] === written[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix &&
    suffix < written.length - prefix &&
    old[old.length - 1 - suffix] === written[written.length - 1 - suffix]
  ) {
    suffix++;
  }
  // Never between the halves of a character or of a CRLF.
  while (
    prefix > 0 &&
    (isHighSurrogate(old, prefix - 1) || (old[prefix - 1] === '\r' && old[prefix] === '\n'))
  )
    prefix--;
  const splits = (at: number) => isLowSurrogate(old, at) || (old[at] === '\n' && old[at - 1] === '\r');
  while (suffix > 0 && splits(old.length - suffix)) suffix--;
  const cutFrom = byteOffset(note, bytes, start + prefix);
  const cutTo = byteOffset(note, bytes, start + old.length - suffix);
  const middle = encodeText(note, written.slice(prefix, written.length - suffix));
  return Buffer.concat([bytes.subarray(0, cutFrom), middle, bytes.subarray(cutTo)]);
}

/** The text of the section under `heading`, without the blank lines around it, and what replaces it. */
function sectionSpan(
  text: string,
  path: string,
  heading: string,
  replacement: string,
  lines: number[],
  headings: HeadingFact[],
): { start: number; end: number; next: string; heading: string } {
  const wanted = heading.trim().replace(/^#+\s*/, '');
  if (wanted === '' || wanted.startsWith('^')) {
    throw new Error(`"${heading}" is not a heading: give the heading's text, such as "Ideas".`);
  }
  const found = findSubpath({ path, headings, blocks: [] }, wanted);
  const index = headings.findIndex((entry) => entry.line === found.line);
  const section = headings[index];
  if (found.line === null || !section) throw new Error(found.reason ?? `No heading "${heading}".`);
  const next = headings.slice(index + 1).find((entry) => entry.level <= section.level);
  // A Setext heading (text, then a line of = or -) takes two lines.
  const setext = !/^\s{0,3}#/.test(
    text.slice(lines[section.line - 1], lineEnd(text, lines, section.line - 1)),
  );
  let first = section.line + (setext ? 1 : 0);
  let last = (next ? next.line - 1 : lines.length) - 1;
  const blank = (line: number) => text.slice(lines[line], lineEnd(text, lines, line)).trim() === '';
  while (first <= last && blank(first)) first++;
  while (last >= first && blank(last)) last--;
  if (first > last) {
    throw new Error(
      `The section "${section.text}" of "${path}" has no text to replace; add to it with append_to_note.`,
    );
  }
  const start = lines[first]!;
  const end = lineEnd(text, lines, last);
  if (end - start > maxSectionChars) {
    throw new Error(
      `The section "${section.text}" is ${end - start} characters long, more than one edit replaces; give the passage to replace instead.`,
    );
  }
  const written = normalizeBreaks(replacement)
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
  if (written === '') {
    throw new Error(
      `The new text of the section "${section.text}" is empty; to delete text, give it as the passage with empty new text.`,
    );
  }
  return { start, end, next: written, heading: section.text };
}

/** "line 12 (in the section "Links")": where a place in the note is, for the model. */
function where(index: number, lines: number[], headings: HeadingFact[]): string {
  const line = lineOf(index, lines) + 1;
  const heading = headings.filter((entry) => entry.line <= line).at(-1);
  return heading ? `line ${line} (in the section "${heading.text}")` : `line ${line}`;
}

/** Where each line of `text` starts; a line break in any form ends a line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n|\r|\n/g)) starts.push(match.index + match[0].length);
  return starts;
}

/** The 0-based line holding `index`. */
function lineOf(index: number, lines: number[]): number {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lines[middle]! <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Where the text of 0-based `line` ends, before its line break. */
function lineEnd(text: string, lines: number[], line: number): number {
  const next = lines[line + 1];
  if (next === undefined) return text.length;
  return text[next - 2] === '\r' && text[next - 1] === '\n' ? next - 2 : next - 1;
}

function isHighSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}
