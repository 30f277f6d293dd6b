import { describe, expect, it } from 'vitest';
import {
  formLabel,
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
