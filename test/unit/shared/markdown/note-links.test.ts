import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkContexts } from '../../../../src/shared/markdown/note-links';

/** The link as the parser reports it: 1-based line and column, and its source text. */
function linkIn(source: string, raw: string) {
  const offset = source.indexOf(raw);
  const before = source.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1, raw };
}

describe('the context shown with a backlink', () => {
  it('is the whole line, trimmed, when the line is short', () => {
    const source = '# Title\n\n  See [[Other note]] for more.  \n';
    expect(linkContexts(source, [linkIn(source, '[[Other note]]')])).toEqual([
      'See [[Other note]] for more.',
    ]);
  });

  it('keeps the link in view late in a long paragraph, cut at spaces and marked where cut', () => {
    const words = Array.from({ length: 80 }, (_, index) => `word${index}`);
    const source = `${words.slice(0, 60).join(' ')} [[Far target|shown]] ${words.slice(60).join(' ')}\n`;
    const [context] = linkContexts(source, [linkIn(source, '[[Far target|shown]]')]);
    expect(context).toMatch(/^… word\d+ .*\[\[Far target\|shown\]\] word60 .* …$/);
    expect(context!.length).toBeLessThanOrEqual(40 + '[[Far target|shown]]'.length + 100 + 4);
    // Whole words only: every word in the context is one of the line's.
    for (const word of context!.replace(/^… | …$/g, '').split(' '))
      expect([...words, '[[Far', 'target|shown]]']).toContain(word);
  });

  it('gives each link on a line its own context', () => {
    const source = `${'a '.repeat(200)}[[First]] ${'b '.repeat(200)}[[Second]] end`;
    const [first, second] = linkContexts(source, [linkIn(source, '[[First]]'), linkIn(source, '[[Second]]')]);
    expect(first).toContain('[[First]]');
    expect(first).not.toContain('[[Second]]');
    expect(second).toContain('[[Second]]');
    expect(second!.endsWith('end')).toBe(true);
  });

  it('always contains the link, whatever the line around it', () => {
    const text = fc.stringMatching(/^[a-z .,\t]{0,300}$/);
    fc.assert(
      fc.property(text, text, (before, after) => {
        const raw = '[[Target#Heading]]';
        const source = `# H\n${before}${raw}${after}\n`;
        const [context] = linkContexts(source, [linkIn(source, raw)]);
        expect(context).toContain(raw);
        expect(context!.length).toBeLessThanOrEqual(40 + raw.length + 100 + 4);
      }),
      { numRuns: 2000 },
    );
  });
});
