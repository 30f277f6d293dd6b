import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff';
import type { DiffSegment } from '../../shared/chat-domain';

/**
 * How many words, spaces and line breaks one word diff may add or remove before it gives up: past it the
 * search costs seconds on a long section (a 50 KB rewrite took 21 s unbounded). Lines are aligned
 * first (up to `lineEditLimit` lines changed), so only the lines that changed are compared word by word:
 * a changed block of lines as a whole when it is short, else line by line.
 */
const wordEditLimit = 500;
const lineEditLimit = 400;
const wholeBlockChars = 20_000;
/** Unchanged lines kept on each side of a change; longer unchanged stretches are elided. */
const contextLines = 3;

/**
 * The card's diff of an edit: `before` and `after` are the unchanged text of the section around the
 * passage, `old` the passage and `next` what replaces it (all with \n line breaks). Word by word, exact:
 * the segments that are not added spell `before + old + after`, those not removed the new section.
 */
export function editDiff(before: string, old: string, next: string, after: string): DiffSegment[] {
  const segments: DiffSegment[] = [];
  const push = (kind: 'same' | 'removed' | 'added', text: string) => {
    if (text === '') return;
    const last = segments.at(-1);
    if (last && last.kind === kind) last.text += text;
    else segments.push({ kind, text });
  };
  push('same', before);
  for (const change of wordChanges(old, next)) push(kindOf(change), change.value);
  push('same', after);
  return elided(segments);
}

/** Word changes, lines aligned first; a block too changed to align word by word is compared line by line. */
function wordChanges(old: string, next: string): ChangeObject<string>[] {
  const lines = diffLines(old, next, { maxEditLength: lineEditLimit }) ?? [removal(old), addition(next)];
  const changes: ChangeObject<string>[] = [];
  for (let index = 0; index < lines.length;) {
    const line = lines[index]!;
    if (!line.added && !line.removed) {
      changes.push(line);
      index++;
      continue;
    }
    let removed = '';
    let added = '';
    for (; index < lines.length && (lines[index]!.added || lines[index]!.removed); index++) {
      if (lines[index]!.added) added += lines[index]!.value;
      else removed += lines[index]!.value;
    }
    const whole = removed.length + added.length <= wholeBlockChars ? words(removed, added) : undefined;
    changes.push(...(whole ?? lineByLine(removed, added)));
  }
  return changes;
}

function words(old: string, next: string): ChangeObject<string>[] | undefined {
  return diffWordsWithSpace(old, next, { maxEditLength: wordEditLimit });
}

/** Each removed line against the added line in its place; lines without a counterpart whole. */
function lineByLine(old: string, next: string): ChangeObject<string>[] {
  const oldLines = old.split(/(?<=\n)/);
  const newLines = next.split(/(?<=\n)/);
  const changes: ChangeObject<string>[] = [];
  for (let index = 0; index < Math.max(oldLines.length, newLines.length); index++) {
    const was = oldLines[index] ?? '';
    const is = newLines[index] ?? '';
    changes.push(...(words(was, is) ?? [removal(was), addition(is)]));
  }
  return changes;
}

function kindOf(change: ChangeObject<string>): 'same' | 'removed' | 'added' {
  return change.added ? 'added' : change.removed ? 'removed' : 'same';
}

function removal(value: string): ChangeObject<string> {
  return { value, added: false, removed: true, count: 1 };
}

function addition(value: string): ChangeObject<string> {
  return { value, added: true, removed: false, count: 1 };
}

/**
 * Unchanged stretches cut to the `contextLines` lines next to a change, the lines between them counted:
 * a one-word edit in a long section is shown with the lines around it, not the whole section.
 */
function elided(segments: DiffSegment[]): DiffSegment[] {
  return segments.flatMap((segment, index): DiffSegment[] => {
    if (segment.kind !== 'same') return [segment];
    const pieces = segment.text.split('\n');
    const keepHead = index > 0 ? contextLines + 1 : 0;
    const keepTail = index < segments.length - 1 ? contextLines + 1 : 0;
    const hidden = pieces.length - keepHead - keepTail;
    if (hidden < 2) return [segment];
    const head = pieces.slice(0, keepHead);
    const tail = pieces.slice(pieces.length - keepTail);
    return [
      ...(head.length > 0 ? [{ kind: 'same' as const, text: `${head.join('\n')}\n` }] : []),
      { kind: 'elided', lines: hidden },
      ...(tail.length > 0 ? [{ kind: 'same' as const, text: tail.join('\n') }] : []),
    ];
  });
}
