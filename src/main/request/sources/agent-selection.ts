/** How `agent` items are chosen for a question (PRODUCT.md §6 "Context items"). */
export interface AgentSelectionOptions {
  /** Passages (of every item's description) compared with the question that count: the closest K. */
  topPassages: number;
  /** Items chosen by rank: the N best. */
  topItems: number;
  /** Items scoring at least this are chosen whatever their rank. */
  alwaysAt: number;
  /** Items scoring below this are not chosen by rank: the question is not about them. */
  minimum: number;
}

export const defaultAgentSelection: AgentSelectionOptions = {
  topPassages: 20,
  topItems: 5,
  alwaysAt: 0.7,
  minimum: 0.1,
};

/** One passage of an item's description, scored against the question. */
export interface ScoredPassage {
  item: string;
  score: number;
}

/** An `agent` item with its score, and why it was left out when it was. */
export interface AgentChoice {
  item: string;
  /** Its best passage's score, rounded to two places as the request context shows it. */
  score: number;
  chosen: boolean;
  /** Why it was not chosen, in words the user reads in "Context used". */
  reason: string | null;
}

const rounded = (score: number) => Math.round(score * 100) / 100;

/**
 * Chooses the items a question is about: the passages closest to it (top K) name the candidates, each
 * scored by its best passage; the best N above the minimum are chosen, and any scoring at least
 * `alwaysAt`. Every item gets its score and, when left out, the reason. The budget may still leave a
 * chosen item out later ("over budget").
 */
export function chooseAgentItems(
  items: readonly string[],
  passages: readonly ScoredPassage[],
  options: AgentSelectionOptions = defaultAgentSelection,
): AgentChoice[] {
  const best = new Map<string, number>();
  for (const passage of passages)
    best.set(passage.item, Math.max(best.get(passage.item) ?? 0, passage.score));
  const top = [...passages].sort((a, b) => b.score - a.score).slice(0, options.topPassages);
  const candidates = new Set(top.map((passage) => passage.item));
  const ranked = items
    .filter((item) => candidates.has(item))
    .sort((a, b) => best.get(b)! - best.get(a)! || (a < b ? -1 : 1));
  const rank = new Map(ranked.map((item, index) => [item, index]));
  return items.map((item) => {
    const score = rounded(best.get(item) ?? 0);
    const place = rank.get(item);
    const shown = score.toFixed(2);
    if (score >= options.alwaysAt) return { item, score, chosen: true, reason: null };
    if (place === undefined)
      return {
        item,
        score,
        chosen: false,
        reason: `score ${shown}: none of its text is among the ${options.topPassages} passages closest to the message`,
      };
    if (score < options.minimum)
      return { item, score, chosen: false, reason: `score ${shown}, below ${options.minimum.toFixed(2)}` };
    if (place >= options.topItems)
      return { item, score, chosen: false, reason: `score ${shown}, not in the top ${options.topItems}` };
    return { item, score, chosen: true, reason: null };
  });
}
