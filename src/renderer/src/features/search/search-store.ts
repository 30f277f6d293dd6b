import { create } from 'zustand';
import type { SearchHit, SearchPartial, TagCount } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';

interface SearchState {
  query: string;
  folder: string;
  tag: string;
  hits: SearchHit[];
  /** How many notes the search found in all; more than `hits` when there are more to show. */
  total: number;
  /** Set when the index searched is not whole yet (a first index is running, or was cancelled). */
  partial: SearchPartial | null;
  /** The hit the arrow keys point at. */
  selected: number;
  tags: TagCount[];
  error: string | null;
  /** True while the visible hits are older than the query. */
  pending: boolean;
  /** True while the next page of hits is on its way. */
  loadingMore: boolean;
  set(change: Partial<Pick<SearchState, 'query' | 'folder' | 'tag'>>): void;
  select(index: number): void;
  loadTags(): Promise<void>;
  /** Shows the next page of hits. */
  more(): Promise<void>;
  /** Runs the search again (the index changed), keeping as many hits shown as before. */
  refresh(): void;
  clear(): void;
}

/** A search with nothing typed: no query, no filters, no hits. */
const cleared = {
  query: '',
  folder: '',
  tag: '',
  hits: [],
  total: 0,
  partial: null,
  selected: 0,
  pending: false,
  loadingMore: false,
  error: null,
} satisfies Partial<SearchState>;

/** How many hits a page holds. */
export const searchPageSize = 50;
const mostShownAgain = 200;
const debounceMs = 60;
let timer: ReturnType<typeof setTimeout> | undefined;
let latest = 0;

/** Full-text search of the vault, as you type; answers to superseded queries are dropped. */
export const useSearchStore = create<SearchState>((set, get) => {
  const request = (offset: number, limit: number) => {
    const { query, folder, tag } = get();
    return kasten.search.results({
      query,
      limit,
      ...(offset > 0 ? { offset } : {}),
      ...(folder ? { folder } : {}),
      ...(tag ? { tag } : {}),
    });
  };
  const run = async (limit: number) => {
    const ticket = ++latest;
    if (get().query.trim() === '') {
      set({ hits: [], total: 0, partial: null, selected: 0, pending: false, error: null });
      return;
    }
    try {
      const { hits, total, partial } = await request(0, limit);
      if (ticket === latest) set({ hits, total, partial, selected: 0, pending: false, error: null });
    } catch (error) {
      if (ticket === latest) set({ hits: [], total: 0, pending: false, error: describeError(error) });
    }
  };
  const schedule = (limit = searchPageSize) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(limit), debounceMs);
  };

  return {
    ...cleared,
    tags: [],
    set(change) {
      set({ ...change, pending: true });
      schedule();
    },
    select(index) {
      const count = get().hits.length;
      if (count > 0) set({ selected: (index + count) % count });
    },
    async loadTags() {
      try {
        set({ tags: await kasten.search.tags() });
      } catch {
        // The filter just offers no tags; searching still works.
      }
    },
    async more() {
      const { hits, total, loadingMore, pending } = get();
      if (loadingMore || pending || hits.length >= total) return;
      const ticket = latest;
      set({ loadingMore: true });
      try {
        const page = await request(hits.length, searchPageSize);
        if (ticket !== latest) return;
        const shown = new Set(hits.map((hit) => hit.path));
        set({
          hits: [...hits, ...page.hits.filter((hit) => !shown.has(hit.path))],
          total: page.total,
          partial: page.partial,
        });
      } catch (error) {
        if (ticket === latest) set({ error: describeError(error) });
      } finally {
        if (ticket === latest) set({ loadingMore: false });
      }
    },
    refresh() {
      if (get().query.trim()) schedule(Math.min(mostShownAgain, Math.max(searchPageSize, get().hits.length)));
    },
    clear() {
      clearTimeout(timer);
      latest++;
      set(cleared);
    },
  };
});

export const searchActive = (state: SearchState) => state.query.trim() !== '';
