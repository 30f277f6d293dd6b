import { describe, expect, it } from 'vitest';
import { fuseRankings, fusionConstant } from '../../../src/main/embeddings/rank-fusion';

const byName = (item: string) => item;
const keys = (fused: { key: string }[]) => fused.map((item) => item.key);

describe('reciprocal rank fusion', () => {
  it('scores each item Σ 1/(60 + rank) over the rankings holding it', () => {
    const fused = fuseRankings(
      [
        ['a', 'b', 'c'],
        ['c', 'a'],
      ],
      byName,
    );
    expect(fusionConstant).toBe(60);
    const score = Object.fromEntries(fused.map((item) => [item.key, item.score]));
    expect(score.a).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(score.b).toBeCloseTo(1 / 62, 12);
    expect(score.c).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused.find((item) => item.key === 'c')?.ranks).toEqual([3, 1]);
    expect(fused.find((item) => item.key === 'b')?.ranks).toEqual([2, null]);
  });

  it('puts an item both rankings hold above items only one ranks first', () => {
    // b is second in both: 2/62 beats 1/61 (a) and 1/61 (z).
    expect(
      keys(
        fuseRankings(
          [
            ['a', 'b'],
            ['z', 'b'],
          ],
          byName,
        ),
      ),
    ).toEqual(['b', 'a', 'z']);
  });

  it('breaks ties by best rank, then by the earlier ranking, then by key', () => {
    // a and z are both first once; the lexical (first) ranking wins the tie.
    expect(keys(fuseRankings([['a'], ['z']], byName))).toEqual(['a', 'z']);
    // Equal scores from one ranking each at equal ranks: the earlier ranking, then the key.
    expect(
      keys(
        fuseRankings(
          [
            ['m', 'x'],
            ['n', 'y'],
          ],
          byName,
        ),
      ),
    ).toEqual(['m', 'n', 'x', 'y']);
  });

  it('counts an item listed twice in one ranking at its best rank only', () => {
    const [first] = fuseRankings([['a', 'a', 'b']], byName);
    expect(first).toMatchObject({ key: 'a', ranks: [1] });
    expect(first?.score).toBeCloseTo(1 / 61, 12);
  });

  it('keeps the item as each ranking holds it, keyed by what keyOf says', () => {
    const lexical = [{ path: 'A.md', snippet: 'lexical' }];
    const semantic = [
      { path: 'B.md', snippet: 'semantic B' },
      { path: 'A.md', snippet: 'semantic A' },
    ];
    const fused = fuseRankings<{ path: string; snippet: string }>([lexical, semantic], (hit) => hit.path);
    expect(fused.map((item) => item.key)).toEqual(['A.md', 'B.md']);
    expect(fused[0]?.items.map((item) => item?.snippet)).toEqual(['lexical', 'semantic A']);
    expect(fused[1]?.items.map((item) => item?.snippet)).toEqual([undefined, 'semantic B']);
  });

  it('gives nothing for no rankings and honours another k', () => {
    expect(fuseRankings([], byName)).toEqual([]);
    expect(fuseRankings([[], []], byName)).toEqual([]);
    expect(fuseRankings([['a']], byName, 0)[0]?.score).toBe(1);
  });
});
