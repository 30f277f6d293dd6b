import { describe, expect, it } from 'vitest';
import { partSegments } from '../../../src/renderer/src/features/context/context-parts';

describe('the stacked bar of the context breakdown', () => {
  it('lists parts in prompt order whatever order they come in, leaving out empty ones', () => {
    const segments = partSegments(
      [
        { part: 'current', tokens: 100 },
        { part: 'system', tokens: 400 },
        { part: 'rule', tokens: 0 },
        { part: 'history', tokens: 1000 },
        { part: 'tools', tokens: 500 },
      ],
      4000,
    );
    expect(segments.map((segment) => segment.part)).toEqual(['system', 'tools', 'history', 'current']);
    expect(segments.map((segment) => segment.label)).toEqual([
      'System prompt',
      'Tool schemas',
      'History',
      'Current message',
    ]);
  });

  it('adds up a part that comes more than once', () => {
    const [reference] = partSegments(
      [
        { part: 'reference', tokens: 300 },
        { part: 'reference', tokens: 700 },
      ],
      4000,
    );
    expect(reference).toMatchObject({ part: 'reference', tokens: 1000, percent: 25 });
  });

  it('sizes each part as a share of the window and never past the end of the bar', () => {
    const segments = partSegments(
      [
        { part: 'system', tokens: 1000 },
        { part: 'history', tokens: 5000 },
        { part: 'current', tokens: 500 },
      ],
      4000,
    );
    expect(segments.map((segment) => segment.percent)).toEqual([25, 75, 0]);
    expect(segments.reduce((sum, segment) => sum + segment.percent, 0)).toBe(100);
  });

  it('draws nothing for a window of zero', () => {
    expect(partSegments([{ part: 'system', tokens: 10 }], 0)).toEqual([
      { part: 'system', label: 'System prompt', tokens: 10, percent: 0 },
    ]);
  });
});
