import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords } from '../../../../src/shared/markdown/text-rules';

/** The definition countWords implements. */
const wordsByPattern = (text: string) => text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;

describe('countWords', () => {
  it('counts words joined by apostrophes and hyphens as one', () => {
    expect(countWords("It's a well-known rock’n’roll fact")).toBe(5);
    expect(countWords("a--b, -c- d' 𝒳𝒴 🙂 日本語 x2")).toBe(7);
    expect(countWords('')).toBe(0);
  });

  it('equals the pattern on 5,000 generated texts', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'word',
        'Wörter',
        'x',
        '42',
        "'",
        '’',
        '-',
        ' ',
        '\n',
        '𝒳',
        '🙂',
        '日本',
        '_',
        '٣',
        'é',
        'e\u0301',
      ),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
        const text = pieces.join('');
        expect(countWords(text), JSON.stringify(text)).toBe(wordsByPattern(text));
      }),
      { numRuns: 5000 },
    );
  });
});
