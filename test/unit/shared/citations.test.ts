import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CitationStream,
  citedNumbers,
  parseCitations,
  type AnswerPart,
} from '../../../src/shared/chat/citations';

// The model was given notes 1 to 20.
const known = (n: number) => n >= 1 && n <= 20;
const parse = (text: string) => parseCitations(text, known);
const text = (value: string): AnswerPart => ({ type: 'text', text: value });
const cite = (numbers: number[], raw: string): AnswerPart => ({ type: 'citation', numbers, raw });

/** Streams the deltas and returns what each push, then end(), emitted. */
function streamed(deltas: string[], isKnown = known): AnswerPart[][] {
  const stream = new CitationStream(isKnown);
  return [...deltas.map((delta) => stream.push(delta)), stream.end()];
}

/** All emitted parts as one list, adjacent text merged, as a reader would see the finished answer. */
function merged(calls: AnswerPart[][]): AnswerPart[] {
  const result: AnswerPart[] = [];
  for (const part of calls.flat()) {
    const last = result.at(-1);
    if (part.type === 'text' && last?.type === 'text')
      result[result.length - 1] = text(last.text + part.text);
    else result.push(part);
  }
  return result;
}

const shown = (parts: AnswerPart[]) =>
  parts.map((part) => (part.type === 'text' ? part.text : part.raw)).join('');

describe('citation markers', () => {
  it('reads single, listed, double-bracketed and adjacent markers', () => {
    expect(parse('Zettels link [1], [2, 3] and [4,5].')).toEqual([
      text('Zettels link '),
      cite([1], '[1]'),
      text(', '),
      cite([2, 3], '[2, 3]'),
      text(' and '),
      cite([4, 5], '[4,5]'),
      text('.'),
    ]);
    expect(parse('See [[7]] and [ 8 , 9 ].')).toEqual([
      text('See '),
      cite([7], '[[7]]'),
      text(' and '),
      cite([8, 9], '[ 8 , 9 ]'),
      text('.'),
    ]);
    expect(parse('Both[1][2]')).toEqual([text('Both'), cite([1], '[1]'), cite([2], '[2]')]);
  });

  it('drops numbers of notes the model was not given, and keeps markers left with none as text', () => {
    expect(parse('A [1, 99] b')).toEqual([text('A '), cite([1], '[1, 99]'), text(' b')]);
    expect(parse('A [99] b [0]')).toEqual([text('A [99] b [0]')]);
    // A year, an index into an array: text, whole, not chips and not gone.
    expect(parse('In [2023] we set arr[21] = 0.')).toEqual([text('In [2023] we set arr[21] = 0.')]);
    const parts = streamed(['In [20', '23] we set arr[', '21] = 0.']).flat();
    expect(parts.every((part) => part.type === 'text')).toBe(true);
    expect(parts.map((part) => (part.type === 'text' ? part.text : '')).join('')).toBe(
      'In [2023] we set arr[21] = 0.',
    );
    expect(parse('[3, 3, 1]')).toEqual([cite([3, 1], '[3, 3, 1]')]);
  });

  it('leaves links, wikilinks, task boxes, footnotes and escaped brackets as text', () => {
    for (const source of [
      '[1](http://x) and [[2]](y)',
      'See [[Note]] and [[1|alias]]',
      '- [x] done\n- [ ] open',
      'Claim[^1] and [] and [1,] and [,1] and [1 2]',
      'Not \\[1] a citation',
    ]) {
      expect(parse(source), source).toEqual([text(source)]);
    }
  });

  it('reads an unclosed double bracket as a bracket followed by a marker', () => {
    expect(parse('[[12] x')).toEqual([text('['), cite([12], '[12]'), text(' x')]);
    expect(parse('[[12]')).toEqual([text('['), cite([12], '[12]')]);
  });
});

describe('code is never cited', () => {
  it('keeps markers inside inline code spans as text', () => {
    expect(parse('Use `a[1]` and ``b ` [2]`` then [3]')).toEqual([
      text('Use `a[1]` and ``b ` [2]`` then '),
      cite([3], '[3]'),
    ]);
  });

  it('keeps fenced blocks as text, with indented, tilde and longer fences', () => {
    const fenced = '```ts\nx[1]\n```\n   ~~~\n[2]\n~~~\n````\n```\n[3]\n````\n';
    expect(parse(`${fenced}[4]`)).toEqual([text(fenced), cite([4], '[4]')]);
  });

  it('keeps fences nested deep in list items as text, blank lines included', () => {
    const nested = '- a\n  - b\n\n    ```py\n    x = 1\n\n    y = z[1]\n    ```\n';
    expect(parse(`${nested}    [2]`)).toEqual([text(`${nested}    `), cite([2], '[2]')]);
  });

  it('treats a backtick fence whose info string has a backtick as an inline code span', () => {
    expect(parse('```js``` [1]')).toEqual([text('```js``` '), cite([1], '[1]')]);
  });

  it('ends an unclosed code span at a blank line', () => {
    expect(parse('a ` [1]\n\n[2]')).toEqual([text('a ` [1]\n\n'), cite([2], '[2]')]);
  });

  it('tracks a fence opened in one delta and closed several deltas later', () => {
    const calls = streamed(['Code:\n``', '`py\nxs', '[1]\n', '``', '`\n[2] done']);
    expect(merged(calls)).toEqual([text('Code:\n```py\nxs[1]\n```\n'), cite([2], '[2]'), text(' done')]);
  });

  it('keeps everything after an unclosed fence as text', () => {
    expect(parse('~~~\n[1]\n~~\n[2]')).toEqual([text('~~~\n[1]\n~~\n[2]')]);
  });
});

describe('streaming', () => {
  it('holds back a half-typed marker and emits it once decided', () => {
    expect(streamed(['See [', '1', ',', ' 2', ']', ' ok'])).toEqual([
      [text('See ')],
      [],
      [],
      [],
      [],
      [cite([1, 2], '[1, 2]'), text(' ok')],
      [],
    ]);
  });

  it('waits one character after the bracket to rule out a link, and decides at the end', () => {
    expect(streamed(['[1]', '(u)'])).toEqual([[], [text('[1](u)')], []]);
    expect(streamed(['[[12]', ']'])).toEqual([[], [], [cite([12], '[[12]]')]]);
  });

  it('releases text as soon as it cannot be a marker', () => {
    expect(streamed(['a [x', 'b'])).toEqual([[text('a [x')], [text('b')], []]);
  });

  it('bounds how long a possible marker is held back', () => {
    const digits = '[' + '1'.repeat(60);
    expect(streamed([digits])[0]).toEqual([text(digits)]);
  });

  it('lists each cited note once, in order of first citation', () => {
    expect(citedNumbers(parse('[3] x [1, 3] y [[2]] z [1]'))).toEqual([3, 1, 2]);
  });
});

describe('properties', () => {
  const token = fc.constantFrom(
    ...['[', ']', '[[', ']]', '(', '1', '12', '99', ',', ' ', '   ', '`', '``', '```', '~~~', '\n'],
    ...['\\', 'a', 'x', '^', '[1]', '[2, 3]', '[[4]]', '[1](u)', '[[Note]]', '\n```\n', '\n\n'],
  );
  const answer = fc.array(token, { maxLength: 40 }).map((tokens) => tokens.join(''));
  const splitAnswer = fc.tuple(answer, fc.array(fc.nat(), { maxLength: 12 })).map(([source, cuts]) => {
    const points = [...new Set(cuts.map((cut) => cut % (source.length + 1)))].sort((a, b) => a - b);
    return {
      source,
      deltas: [0, ...points].map((start, k) => source.slice(start, points[k] ?? source.length)),
    };
  });

  it('gives the same answer however the text is split into deltas', () => {
    fc.assert(
      fc.property(splitAnswer, ({ source, deltas }) => {
        expect(deltas.join('')).toBe(source);
        expect(merged(streamed(deltas))).toEqual(parse(source));
      }),
      { numRuns: 2000 },
    );
  });

  it('shows every character of the answer when every note is known', () => {
    fc.assert(
      fc.property(splitAnswer, ({ source, deltas }) => {
        expect(shown(streamed(deltas, () => true).flat())).toBe(source);
      }),
      { numRuns: 1000 },
    );
  });

  it('merges adjacent text within each call', () => {
    fc.assert(
      fc.property(splitAnswer, ({ deltas }) => {
        for (const call of streamed(deltas)) {
          call.forEach((part, k) => {
            if (k > 0) expect(part.type === 'text' && call[k - 1]?.type === 'text').toBe(false);
          });
          expect(call.some((part) => part.type === 'text' && part.text === '')).toBe(false);
        }
      }),
    );
  });
});
