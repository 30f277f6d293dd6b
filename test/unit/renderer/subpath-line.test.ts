import { describe, expect, it } from 'vitest';
import { subpathLine } from '../../../src/renderer/src/features/notes/subpath-line';

const note = {
  path: 'folder/Method.md',
  content: [
    '# Method', // 1
    '',
    '## Steps', // 3
    '',
    '### Detail', // 5
    '',
    'A paragraph. ^core', // 7
    '',
    '## Other',
    '',
    '### Detail', // 11
  ].join('\n'),
};

describe('the line a subpath names in the note shown', () => {
  it('finds a heading, a nested heading path and a block', () => {
    expect(subpathLine(note, 'Steps')).toBe(3);
    expect(subpathLine(note, 'Other#Detail')).toBe(11);
    expect(subpathLine(note, 'steps#detail')).toBe(5);
    expect(subpathLine(note, '^core')).toBe(7);
  });

  it('is null for a heading or block the note does not have', () => {
    expect(subpathLine(note, 'Nowhere')).toBeNull();
    expect(subpathLine(note, '^missing')).toBeNull();
  });
});
