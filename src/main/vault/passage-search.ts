import { normalizeBreaks } from './note-text';

/** Places an edit's passage is reported at, at most, when it occurs more than once. */
const shownPlaces = 5;
/** The shortest start or end of a passage worth pointing at when the whole does not occur. */
const shortestClue = 12;
/** How much of the note is quoted back when the passage does not occur, at most. */
const quoted = 300;
/** How far past the passage's length a quote goes, to show where the note parts from it. */
const margin = 40;

/**
 * Where `passage` occurs in `text`, exactly but for the form of its line breaks. It must occur once:
 * otherwise the Error says how often and where (`where` names a place), or, when it does not occur,
 * what the note holds where it comes closest (the same words with other spacing or capitals, or the
 * longest start or end of the passage that does occur).
 */
export function findPassage(
  text: string,
  passage: string,
  path: string,
  where: (index: number) => string,
): { start: number; end: number } {
  const wanted = normalizeBreaks(passage);
  if (wanted.trim() === '')
    throw new Error('The passage to replace is empty: give the exact text to replace.');
  const found = occurrences(text, exactPattern(wanted), shownPlaces + 1);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    const total = found.length > shownPlaces ? countOf(text, exactPattern(wanted)) : found.length;
    const places = found.slice(0, shownPlaces).map((place) => where(place.start));
    const more = total > shownPlaces ? `, and ${total - shownPlaces} more` : '';
    throw new Error(
      `The passage occurs ${total} times in "${path}": at ${listed(places)}${more}. Nothing was changed; give more of the text around the one to change, so that the passage occurs once.`,
    );
  }
  throw new Error(
    `The passage does not occur in "${path}", so nothing was changed. ${closest(text, wanted, where)}`,
  );
}

/** What the note holds where the passage comes closest, or that nothing does. */
function closest(text: string, wanted: string, where: (index: number) => string): string {
  const loose = occurrences(text, loosePattern(wanted), 1)[0];
  if (loose) {
    return `At ${where(loose.start)} the note has it with other spacing or capitals: "${quote(text, loose.start, loose.end - loose.start)}". Copy the passage exactly as the note has it.`;
  }
  const start = longestPart(text, wanted, (length) => wanted.slice(0, length));
  const end = longestPart(text, wanted, (length) => wanted.slice(wanted.length - length));
  const best = start.length >= end.length ? { ...start, part: 'start' } : { ...end, part: 'end' };
  if (best.length < Math.min(shortestClue, wanted.length)) {
    return 'Not even its first or last words do: read the note again (read_note) and copy the passage exactly.';
  }
  // Quoted from where the matching start begins, or up to where the matching end stops, with some more
  // on the side where the passage and the note part.
  const length = wanted.length + margin;
  const from = best.part === 'start' ? best.index : Math.max(0, best.index + best.length - length);
  return `Its ${best.part} (${best.length} of ${wanted.length} characters) does, at ${where(best.index)}, where the note reads: "${quote(text, from, length)}". Copy the passage exactly as the note has it.`;
}

/**
 * The longest part of `wanted` (its start or end, as `part` cuts it) that occurs in `text`, found by
 * halving: a part that occurs has shorter parts that occur too.
 */
function longestPart(
  text: string,
  wanted: string,
  part: (length: number) => string,
): { length: number; index: number } {
  let best = { length: 0, index: -1 };
  let low = 1;
  let high = wanted.length - 1;
  while (low <= high) {
    const length = (low + high) >> 1;
    const place = occurrences(text, exactPattern(part(length)), 1)[0];
    if (place) {
      best = { length, index: place.start };
      low = length + 1;
    } else {
      high = length - 1;
    }
  }
  return best;
}

/** Up to `limit` places the pattern matches, without overlapping. */
function occurrences(text: string, pattern: RegExp, limit: number): { start: number; end: number }[] {
  const places: { start: number; end: number }[] = [];
  for (const match of text.matchAll(pattern)) {
    places.push({ start: match.index, end: match.index + match[0].length });
    if (places.length >= limit) break;
  }
  return places;
}

function countOf(text: string, pattern: RegExp): number {
  let count = 0;
  for (const _match of text.matchAll(pattern)) count++;
  return count;
}

/** The passage itself; a line break in it matches one in any form. */
function exactPattern(wanted: string): RegExp {
  return new RegExp(escaped(wanted).replaceAll('\n', '(?:\\r\\n|\\r|\\n)'), 'g');
}

/** The passage's words in order, with any spacing between them, in any case. */
function loosePattern(wanted: string): RegExp {
  const words = wanted.trim().split(/\s+/).map(escaped);
  return new RegExp(words.join('\\s+'), 'gi');
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `length` characters of the note from `from`, at most `quoted`, line breaks as \n. */
function quote(text: string, from: number, length: number): string {
  const shown = normalizeBreaks(text.slice(from, from + Math.min(length, quoted)));
  return length > quoted ? `${shown}…` : shown;
}

function listed(places: string[]): string {
  return places.length <= 2 ? places.join(' and ') : `${places.slice(0, -1).join(', ')} and ${places.at(-1)}`;
}
