import type { NotePassage } from '../context-types';
import type { TokenCounter } from '../count/token-counter';

/** What separating one passage from the next costs in the excerpt's JSON, at most. */
const separatorTokens = 8;

/**
 * The passages of a pinned note that fit `limit` tokens, most relevant first, laid out in the note's
 * order by `excerpt`; null when not even the most relevant one fits. Counted once per passage, then the
 * whole excerpt once (dropping the least relevant while it is over, which the estimate makes rare).
 */
export function choosePassages(
  passages: readonly NotePassage[],
  excerpt: (chosen: readonly NotePassage[]) => string,
  limit: number,
  counter: TokenCounter,
): string | null {
  let used = counter.text(excerpt([]));
  const chosen: NotePassage[] = [];
  for (const passage of [...passages].sort((a, b) => b.score - a.score || a.position - b.position)) {
    const tokens = counter.text(passage.text) + separatorTokens;
    if (used + tokens > limit) continue;
    chosen.push(passage);
    used += tokens;
  }
  const inOrder = (list: NotePassage[]) => [...list].sort((a, b) => a.position - b.position);
  while (chosen.length > 0) {
    const text = excerpt(inOrder(chosen));
    if (counter.text(text) <= limit) return text;
    chosen.pop();
  }
  return null;
}
