import { describe, expect, it } from 'vitest';
import { embeddedSection } from '../../../../src/shared/markdown/note-section';

const note = [
  '---',
  'tags: [a]',
  '---',
  '# Title',
  '',
  'Intro.',
  '',
  '## Method',
  '',
  'First paragraph',
  'continues here. ^first',
  '',
  '```',
  '# not a heading',
  '```',
  '',
  '### Detail',
  '',
  'Deeper.',
  '',
  '## Next',
  '',
  'Elsewhere.',
].join('\n');

const kept = (text: string) =>
  text
    .split('\n')
    .map((line, index) => [index + 1, line] as const)
    .filter(([, line]) => line !== '');

describe('embeddedSection', () => {
  it('keeps a heading section up to the next heading of the same level, ignoring code', () => {
    expect(kept(embeddedSection(note, 8))).toEqual([
      [8, '## Method'],
      [10, 'First paragraph'],
      [11, 'continues here. ^first'],
      [13, '```'],
      [14, '# not a heading'],
      [15, '```'],
      [17, '### Detail'],
      [19, 'Deeper.'],
    ]);
  });

  it('keeps the whole paragraph of a block, whose line is its last', () => {
    expect(kept(embeddedSection(note, 11))).toEqual([
      [10, 'First paragraph'],
      [11, 'continues here. ^first'],
    ]);
  });

  it('drops only the frontmatter for a whole-note embed, keeping line numbers', () => {
    const section = embeddedSection(note, null);
    expect(section.split('\n')).toHaveLength(23);
    expect(kept(section)[0]).toEqual([4, '# Title']);
  });

  it('reads to the end of the note when no later heading closes the section', () => {
    expect(kept(embeddedSection(note, 21))).toEqual([
      [21, '## Next'],
      [23, 'Elsewhere.'],
    ]);
  });
});
