import type { SearchPartial } from '../../../../shared/index-domain';
import { searchPageSize, useSearchStore } from './search-store';

const count = (value: number) => value.toLocaleString('en-US');
const notes = (value: number) => `${count(value)} ${value === 1 ? 'note' : 'notes'}`;

/** Says that the index searched is not whole yet, and how much of it there is. */
export function PartialNotice({ partial }: { partial: SearchPartial }) {
  const read = `${count(partial.read)} of ${count(partial.total)} notes`;
  return (
    <p className="search-partial" role="status" data-testid="search-partial">
      {partial.cancelled
        ? `Indexing was cancelled after ${read}: results are partial until it resumes.`
        : `Still indexing (${read} read): results are partial.`}
    </p>
  );
}

/** How many notes the search found, how many are shown, and a way to show more. */
export function SearchFooter() {
  const { hits, total, loadingMore, more } = useSearchStore();
  if (hits.length === 0) return null;
  const left = total - hits.length;
  return (
    <div className="search-footer" data-testid="search-total">
      <span>{left > 0 ? `${count(hits.length)} of ${notes(total)}` : `${notes(total)}`}</span>
      {left > 0 && (
        <button
          type="button"
          className="link-button"
          data-testid="search-more"
          disabled={loadingMore}
          onClick={() => void more()}
        >
          {loadingMore ? 'Loading…' : `Show ${count(Math.min(left, searchPageSize))} more`}
        </button>
      )}
    </div>
  );
}
