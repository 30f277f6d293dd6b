import { describe, expect, it } from 'vitest';
import { openLinkBefore, openSubpathBefore } from '../../../src/renderer/src/features/chat/link-completion';
import {
  blockSuggestions,
  headingSuggestions,
  headingSubpath,
} from '../../../src/renderer/src/features/chat/subpath-suggestions';

const subpaths = {
  path: 'Plugins/Canvas.md',
  headings: [
    { level: 1, text: 'Canvas', line: 1 },
    { level: 2, text: 'Create a canvas', line: 5 },
    { level: 2, text: 'Cards: add, move', line: 9 },
    { level: 3, text: 'Canvas files', line: 14 },
  ],
  blocks: [
    { id: 'intro', line: 3 },
    { id: 'table-1', line: 12 },
  ],
};

describe('[[Note# completion', () => {
  it('opens after a target and #, or #^ for blocks; a plain [[ stays a note completion', () => {
    expect(openSubpathBefore('See [[Plugins/Canvas#cre', 24)).toEqual({
      start: 4,
      target: 'Plugins/Canvas',
      block: false,
      query: 'cre',
    });
    expect(openSubpathBefore('[[Canvas#^ta', 12)).toMatchObject({
      target: 'Canvas',
      block: true,
      query: 'ta',
    });
    expect(openSubpathBefore('[[#Heading', 10)).toBeNull();
    expect(openSubpathBefore('[[Canvas', 8)).toBeNull();
    expect(openLinkBefore('[[Canvas#', 9)).toBeNull();
    expect(openSubpathBefore('[[Canvas#Cards]] and more', 25)).toBeNull();
  });

  it('offers headings in the note’s order, an exact one first, written as a link can carry them', () => {
    expect(headingSuggestions(subpaths, '').map((s) => s.subpath)).toEqual([
      'Canvas',
      'Create a canvas',
      'Cards add, move',
      'Canvas files',
    ]);
    expect(headingSuggestions(subpaths, 'canvas files').map((s) => s.label)).toEqual(['Canvas files']);
    expect(headingSuggestions(subpaths, 'canvas').map((s) => s.label)).toEqual([
      'Canvas',
      'Canvas files',
      'Create a canvas',
    ]);
    expect(headingSubpath('Why: the [reasons] #1')).toBe('Why the reasons 1');
  });

  it('offers blocks by id or by their words, the line above for an id standing alone', () => {
    const lines = [
      '# Canvas',
      '',
      'Canvas is a plugin. ^intro',
      '',
      '| a | b |',
      '',
      '',
      '',
      '',
      '',
      '| 1 | 2 |',
      '^table-1',
    ];
    expect(blockSuggestions(subpaths, lines, '').map((s) => [s.subpath, s.detail])).toEqual([
      ['^intro', 'Canvas is a plugin.'],
      ['^table-1', '| 1 | 2 |'],
    ]);
    expect(blockSuggestions(subpaths, lines, 'plugin').map((s) => s.subpath)).toEqual(['^intro']);
    expect(blockSuggestions(subpaths, null, 'tab').map((s) => s.label)).toEqual(['^table-1']);
  });
});
