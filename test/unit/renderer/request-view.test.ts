import { describe, expect, it } from 'vitest';
import {
  formLabel,
  groupByKind,
  includeText,
  kindLabel,
  requestLabels,
  scoreText,
} from '../../../src/renderer/src/features/context/request-view';

describe('the "Context used" view', () => {
  it('marks only items that did not go in whole', () => {
    expect(formLabel('whole')).toBeNull();
    expect(formLabel('cut')).toBe('cut');
    expect(formLabel('fallback')).toBe('summary only');
    expect(formLabel('masked')).toBe('masked');
    expect(formLabel('chunks')).toBe('passages');
    expect(formLabel('title')).toBe('title only');
  });

  it('gives an agent item its score beside its mode', () => {
    expect(includeText('agent', 0.8234)).toBe('agent · 0.82');
    expect(includeText('always', undefined)).toBe('always');
  });

  it('groups items by kind in prompt order, keeping their order within a kind, with totals', () => {
    const groups = groupByKind([
      { kind: 'current', label: 'Your message', tokens: 5 },
      { kind: 'rule', label: 'B', tokens: 2 },
      { kind: 'system', label: 'System prompt', tokens: 10 },
      { kind: 'rule', label: 'A', tokens: 3 },
    ] as const);
    expect(groups.map((group) => [group.label, group.items.map((item) => item.label), group.tokens])).toEqual(
      [
        ['System prompt', ['System prompt'], 10],
        ['Rules', ['B', 'A'], 5],
        ['Current message', ['Your message'], 5],
      ],
    );
  });

  it('names a reference a note and the current message a message', () => {
    expect(kindLabel('reference')).toBe('note');
    expect(kindLabel('current')).toBe('message');
    expect(kindLabel('tool-results')).toBe('tool result');
  });

  it('shows a score with two decimals and nothing without one', () => {
    expect(scoreText(0.8123)).toBe('score 0.81');
    expect(scoreText(undefined)).toBeNull();
  });

  it('numbers the requests of an answer and says which was sent again', () => {
    expect(
      requestLabels([
        { step: 0, retried: false },
        { step: 1, retried: false },
        { step: 1, retried: true },
      ]),
    ).toEqual(['Request 1 of 3 (step 1)', 'Request 2 of 3 (step 2)', 'Request 3 of 3 (step 2, sent again)']);
  });
});
