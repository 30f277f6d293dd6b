import { describe, expect, it } from 'vitest';
import { boostByCoverage } from '../../../src/main/index/coverage-boost';

describe('the some-words boost', () => {
  it('puts a note holding more of the words above one that scored higher on one word', () => {
    const candidates = [
      { id: 1, score: 4 },
      { id: 2, score: 2 },
      { id: 3, score: 2.5 },
    ];
    const held = new Map([
      [1, 1],
      [2, 3],
      [3, 2],
    ]);
    expect(boostByCoverage(candidates, held, 4).map(({ id }) => id)).toEqual([2, 3, 1]);
  });

  it('keeps bm25 order among notes holding as many words, equal scores by id', () => {
    const candidates = [
      { id: 7, score: 1 },
      { id: 5, score: 3 },
      { id: 6, score: 1 },
    ];
    const held = new Map([
      [5, 2],
      [6, 2],
      [7, 2],
    ]);
    expect(boostByCoverage(candidates, held, 3).map(({ id }) => id)).toEqual([5, 6, 7]);
  });
});
