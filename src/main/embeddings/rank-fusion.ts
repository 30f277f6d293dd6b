/** The constant of reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009). */
export const fusionConstant = 60;

export interface FusedItem<T> {
  key: string;
  /** Σ 1 / (k + rank) over the rankings that hold the item, ranks from 1. */
  score: number;
  /** The item as each ranking holds it, in the order of the rankings (undefined where it is missing). */
  items: (T | undefined)[];
  /** The item's rank in each ranking, from 1 (null where it is missing). */
  ranks: (number | null)[];
}

/**
 * Reciprocal rank fusion: each ranking gives an item 1 / (k + rank), the sums decide. Only ranks count,
 * so BM25 scores and cosine similarities need no common scale. An item listed twice in one ranking
 * counts at its best rank. Ties go to the item with the best rank in any ranking, then to the earlier
 * ranking, then to the key.
 */
export function fuseRankings<T>(
  rankings: readonly (readonly T[])[],
  keyOf: (item: T) => string,
  k = fusionConstant,
): FusedItem<T>[] {
  const fused = new Map<string, FusedItem<T>>();
  rankings.forEach((ranking, which) => {
    ranking.forEach((item, index) => {
      const key = keyOf(item);
      let entry = fused.get(key);
      if (!entry) {
        entry = { key, score: 0, items: rankings.map(() => undefined), ranks: rankings.map(() => null) };
        fused.set(key, entry);
      }
      if (entry.ranks[which] !== null) return;
      entry.ranks[which] = index + 1;
      entry.items[which] = item;
      entry.score += 1 / (k + index + 1);
    });
  });
  return [...fused.values()].sort(
    (a, b) =>
      b.score - a.score ||
      bestRank(a) - bestRank(b) ||
      firstRanking(a) - firstRanking(b) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

function bestRank(item: FusedItem<unknown>): number {
  return Math.min(...item.ranks.map((rank) => rank ?? Number.POSITIVE_INFINITY));
}

function firstRanking(item: FusedItem<unknown>): number {
  return item.ranks.findIndex((rank) => rank !== null);
}
