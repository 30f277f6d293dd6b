import { create } from 'zustand';
import type { SearchHit, TagCount } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';

interface SearchState {
  query: string;
  folder: string;
  tag: string;
  hits: SearchHit[];
  /** The hit the arrow keys point at. */
  selected: number;
  tags: TagCount[];
  error: string | null;
  /** True while the visible hits are older than the query. */
  pending: boolean;
  set(change: Partial<Pick<SearchState, 'query' | 'folder' | 'tag'>>): void;
  select(index: number): void;
  loadTags(): Promise<void>;
  /** Runs the search again (the index changed). */
  refresh(): void;
  clear(): void;
}

const debounceMs = 60;
let timer: ReturnType<typeof setTimeout> | undefined;
let latest = 0;

/** Full-text search of the vault, as you type; answers to superseded queries are dropped. */
export const useSearchStore = create<SearchState>((set, get) => {
  const run = async () => {
    const { query, folder, tag } = get();
    const ticket = ++latest;
    if (query.trim() === '') {
      set({ hits: [], selected: 0, pending: false, error: null });
      return;
    }
    try {
      const hits = await kasten.search.notes({
        query,
        limit: 50,
        ...(folder ? { folder } : {}),
        ...(tag ? { tag } : {}),
      });
      if (ticket === latest) set({ hits, selected: 0, pending: false, error: null });
    } catch (error) {
      if (ticket === latest) set({ hits: [], pending: false, error: describeError(error) });
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  };

  return {
    query: '',
    folder: '',
    tag: '',
    hits: [],
    selected: 0,
    tags: [],
    error: null,
    pending: false,
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
    refresh() {
      if (get().query.trim()) schedule();
    },
    clear() {
      clearTimeout(timer);
      latest++;
      set({ query: '', folder: '', tag: '', hits: [], selected: 0, pending: false, error: null });
    },
  };
});

export const searchActive = (state: SearchState) => state.query.trim() !== '';
