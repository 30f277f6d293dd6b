/** A piece of a model's answer: plain Markdown text, or an inline citation of numbered notes. */
export type AnswerPart =
  { type: 'text'; text: string } | { type: 'citation'; numbers: number[]; raw: string };

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const PAREN = 0x28;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const TILDE = 0x7e;

// Longest `[…]` we hold back while it could still be a marker; room for about ten numbers.
const MAX_MARKER_LENGTH = 48;

type MarkerMatch =
  | { kind: 'undecided' }
  | { kind: 'plain' } // only the opening `[` is decided: it is text
  | { kind: 'link'; end: number } // a Markdown link label such as `[1](url)`: all text
  | { kind: 'marker'; end: number; numbers: number[] };

const UNDECIDED: MarkerMatch = { kind: 'undecided' };
const PLAIN: MarkerMatch = { kind: 'plain' };

/** Reads `[1]`, `[1, 2]` or `[[1]]` at `start`; `final` says no more text will follow. */
function matchMarker(text: string, start: number, final: boolean): MarkerMatch {
  const ranOut = final ? PLAIN : UNDECIDED;
  const double = start + 1 < text.length && text.charCodeAt(start + 1) === OPEN;
  const numbers: number[] = [];
  let current = 0;
  let phase: 'before' | 'number' | 'after' = 'before';
  for (let i = start + (double ? 2 : 1); ; i++) {
    if (i - start > MAX_MARKER_LENGTH) return PLAIN;
    if (i >= text.length) return ranOut;
    const ch = text.charCodeAt(i);
    if (ch >= 0x30 && ch <= 0x39) {
      if (phase === 'after') return PLAIN; // `[1 2]`
      current = phase === 'number' ? current * 10 + ch - 0x30 : ch - 0x30;
      phase = 'number';
      continue;
    }
    if (phase === 'number' && (ch === SPACE || ch === COMMA || ch === CLOSE)) {
      numbers.push(current);
      phase = 'after';
    }
    if (ch === SPACE) continue;
    if (ch === COMMA && phase === 'after') phase = 'before';
    else if (ch === CLOSE && phase === 'after') return closeMarker(text, i + 1, double, final, numbers);
    else return PLAIN;
  }
}

/** After the first `]`: a double marker needs its second `]`, and a following `(` makes it a link. */
function closeMarker(
  text: string,
  after: number,
  double: boolean,
  final: boolean,
  numbers: number[],
): MarkerMatch {
  let end = after;
  if (double) {
    if (end >= text.length) return final ? PLAIN : UNDECIDED;
    if (text.charCodeAt(end) !== CLOSE) return PLAIN;
    end++;
  }
  if (end >= text.length) return final ? { kind: 'marker', end, numbers } : UNDECIDED;
  return text.charCodeAt(end) === PAREN ? { kind: 'link', end } : { kind: 'marker', end, numbers };
}

function appendText(parts: AnswerPart[], text: string): void {
  if (text === '') return;
  const last = parts.at(-1);
  if (last?.type === 'text') last.text += text;
  else parts.push({ type: 'text', text });
}

interface Run {
  char: number;
  length: number;
  /** Only whitespace precedes it on its line, so it can open or close a fence. */
  atLineStart: boolean;
}

/**
 * Splits a streamed answer into text and citations. Text is emitted as soon as it is decided; only a
 * possible marker (at most a few dozen characters) is held back. Code spans and fenced code blocks are
 * tracked across deltas so nothing inside them becomes a citation.
 */
export class CitationStream {
  private pending = '';
  private mode: 'prose' | 'span' | 'fence' = 'prose';
  /** Backticks that open the current code span, or fence characters that open the current block. */
  private openLength = 0;
  private fenceChar = 0;
  /** Still on the fence's opening line, where a backtick means it was a code span after all. */
  private infoLine = false;
  /** The current line holds only whitespace so far. */
  private lineBlank = true;
  private closeCandidate = false;
  private escaped = false;
  private run: Run | null = null;

  private readonly isKnown: (n: number) => boolean;

  // A plain field rather than a parameter property, so Node's type stripping can load this for benchmarks.
  constructor(isKnown: (n: number) => boolean) {
    this.isKnown = isKnown;
  }

  /** Adds a delta of the answer; returns the parts that are now final. */
  push(delta: string): AnswerPart[] {
    return this.scan(this.pending + delta, false);
  }

  /** Ends the answer; returns everything still held back. */
  end(): AnswerPart[] {
    return this.scan(this.pending, true);
  }

  private scan(text: string, final: boolean): AnswerPart[] {
    const parts: AnswerPart[] = [];
    this.pending = '';
    let textStart = 0;
    let i = 0;
    while (i < text.length) {
      const ch = text.charCodeAt(i);
      if (this.run) {
        if (ch === this.run.char) {
          this.run.length++;
          i++;
          continue;
        }
        this.finishRun(this.run);
        this.run = null;
      }
      const escaped = this.escaped;
      this.escaped = false;
      // CommonMark allows a fence at most 3 spaces of indent, but models nest fences deeper in list items and
      // never write indented code blocks, so any indent counts.
      const atLineStart = this.lineBlank;
      if (ch === NEWLINE) this.endLine();
      else if (ch !== SPACE && ch !== TAB && ch !== RETURN) {
        this.lineBlank = false;
        this.closeCandidate = false;
        const literal = this.mode === 'prose' && escaped;
        if (ch === BACKTICK || (ch === TILDE && atLineStart)) {
          if (!literal) this.run = { char: ch, length: 1, atLineStart };
        } else if (ch === BACKSLASH && this.mode === 'prose' && !escaped) this.escaped = true;
        else if (ch === OPEN && this.mode === 'prose' && !escaped) {
          const match = matchMarker(text, i, final);
          if (match.kind === 'undecided') {
            appendText(parts, text.slice(textStart, i));
            this.pending = text.slice(i);
            return parts;
          }
          if (match.kind === 'marker') {
            appendText(parts, text.slice(textStart, i));
            this.appendCitation(parts, match.numbers, text.slice(i, match.end));
            textStart = match.end;
          }
          if (match.kind !== 'plain') {
            i = match.end;
            continue;
          }
        }
      }
      i++;
    }
    appendText(parts, text.slice(textStart));
    return parts;
  }

  private appendCitation(parts: AnswerPart[], numbers: number[], raw: string): void {
    const known = [...new Set(numbers)].filter((n) => this.isKnown(n));
    // Brackets holding no number the model was given are not a citation: a year (`[2023]`), an index
    // (`arr[1]`), or the model's mistake. They stay as written.
    if (known.length > 0) parts.push({ type: 'citation', numbers: known, raw });
    else appendText(parts, raw);
  }

  /** A run of backticks or tildes has ended: it may open or close a code span or a fence. */
  private finishRun({ char, length, atLineStart }: Run): void {
    const opensFence = atLineStart && length >= 3;
    if (this.mode === 'fence') {
      if (this.infoLine && char === BACKTICK && this.fenceChar === BACKTICK) {
        // A backtick in a backtick fence's info string: CommonMark reads the line as an inline code span.
        this.mode = length === this.openLength ? 'prose' : 'span';
      } else if (atLineStart && char === this.fenceChar && length >= this.openLength) {
        this.closeCandidate = true;
      }
    } else if (opensFence) {
      // A fence opens a block, so it also ends any code span left open in the paragraph before it.
      this.mode = 'fence';
      this.fenceChar = char;
      this.openLength = length;
      this.infoLine = true;
    } else if (char === BACKTICK && this.mode === 'prose') {
      this.mode = 'span';
      this.openLength = length;
    } else if (char === BACKTICK && length === this.openLength) {
      this.mode = 'prose';
    }
  }

  private endLine(): void {
    if (this.mode === 'fence') {
      if (this.closeCandidate) this.mode = 'prose';
      this.infoLine = false;
    } else if (this.mode === 'span' && this.lineBlank) {
      // A blank line ends the paragraph, and with it a code span that was never closed.
      this.mode = 'prose';
    }
    this.lineBlank = true;
    this.closeCandidate = false;
  }
}

/** Parses a complete answer. */
export function parseCitations(text: string, isKnown: (n: number) => boolean): AnswerPart[] {
  const stream = new CitationStream(isKnown);
  const parts = stream.push(text);
  for (const part of stream.end()) {
    if (part.type === 'text') appendText(parts, part.text);
    else parts.push(part);
  }
  return parts;
}

/** Every note number the parts cite, once each, in order of first citation. */
export function citedNumbers(parts: readonly AnswerPart[]): number[] {
  const numbers = new Set<number>();
  for (const part of parts) if (part.type === 'citation') for (const n of part.numbers) numbers.add(n);
  return [...numbers];
}
