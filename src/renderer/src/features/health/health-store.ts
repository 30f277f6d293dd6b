import type { VirtualItem } from '@tanstack/react-virtual';
import { create } from 'zustand';
import type { HealthSummary } from '../../../../shared/health-domain';
import type { HealthCounts, ResolvedLink } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';

/** Links read at a time when a group's rows come into view. */
export const linksPerPage = 100;

/** Where the list was when the view closed: its offset, and the heights of the rows measured so far. */
export interface HealthScroll {
  offset: number;
  measured: VirtualItem[];
}

interface LinkPage {
  links: ResolvedLink[];
  /** The summary it was read with; an older one's page is shown until the new one comes. */
  generation: number;
}

interface HealthState {
  /** How many issues of each kind: always kept fresh, for the status bar. */
  counts: HealthCounts | null;
  /** The issues grouped, without their links: read while the view shows, kept while it is closed. */
  summary: HealthSummary | null;
  /** Counts the summaries read; a page of links read with an older one is stale. */
  generation: number;
  /** Pages of the open groups' links, by `${groupId}\n${page}`. */
  pages: ReadonlyMap<string, LinkPage>;
  /** The health view is showing in place of the note viewer. */
  shown: boolean;
  error: string | null;
  /** Only the issues of notes under this folder; '' for the whole vault. */
  folder: string;
  /** The groups whose links are listed, by groupId. */
  expanded: ReadonlySet<string>;
  /** The sections folded away. */
  folded: ReadonlySet<string>;
  scroll: HealthScroll | null;
  /** Reads the counts again, and the summary too when the view is showing. */
  load(): Promise<void>;
  show(shown: boolean): void;
  /** Hides the view and forgets how it was left (another vault opened). */
  reset(): void;
  setFolder(folder: string): void;
  toggleGroup(id: string): void;
  toggleSection(id: string): void;
  /** Reads the page holding a group's `index`th link unless it is fresh or on its way. */
  wantLink(group: { id: string; kind: string; key: string }, index: number): void;
  keepScroll(scroll: HealthScroll): void;
}

let loads = 0;
/** Pages being read, by generation and page key. */
const reading = new Set<string>();

function toggled(set: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}

const closedView = {
  summary: null,
  pages: new Map<string, LinkPage>(),
  folder: '',
  expanded: new Set<string>(),
  folded: new Set<string>(),
  scroll: null,
};

/**
 * The vault's health: the counts for the status bar, and for the view the issues grouped by kind and
 * target (counted by the main process), with the open groups' links read a page at a time.
 */
export const useHealthStore = create<HealthState>((set, get) => ({
  counts: null,
  generation: 0,
  shown: false,
  error: null,
  ...closedView,
  async load() {
    // Only the latest load lands: one started before the view opened would bring no issues.
    const load = ++loads;
    const { shown, folder } = get();
    try {
      const [counts, summary] = await Promise.all([
        kasten.vault.issues(),
        shown ? kasten.health.summary(folder ? { folder } : undefined) : Promise.resolve(null),
      ]);
      if (load !== loads) return;
      set(
        summary
          ? { counts, summary, generation: get().generation + 1, error: null }
          : { counts, error: null },
      );
    } catch (error) {
      if (load === loads) set({ error: describeError(error) });
    }
  },
  show(shown) {
    if (shown === get().shown) return;
    set({ shown });
    if (shown) void get().load();
  },
  reset() {
    loads++;
    set({ shown: false, error: null, ...closedView });
  },
  setFolder(folder) {
    if (folder === get().folder) return;
    // The other folder's summary is not shown meanwhile: a click on it would open a group that is not there.
    set({ folder, summary: null, pages: new Map(), expanded: new Set(), scroll: null });
    void get().load();
  },
  toggleGroup(id) {
    set({ expanded: toggled(get().expanded, id) });
  },
  toggleSection(id) {
    set({ folded: toggled(get().folded, id) });
  },
  wantLink(group, index) {
    const { generation, folder, pages } = get();
    const page = Math.floor(index / linksPerPage);
    const key = `${group.id}\n${page}`;
    const flight = `${generation}\n${folder}\n${key}`;
    if (pages.get(key)?.generation === generation || reading.has(flight)) return;
    reading.add(flight);
    kasten.health
      .links({
        kind: group.kind,
        key: group.key,
        ...(folder ? { folder } : {}),
        offset: page * linksPerPage,
        limit: linksPerPage,
      })
      .then(
        ({ links }) => {
          if (get().folder !== folder || get().generation < generation) return;
          set({ pages: new Map(get().pages).set(key, { links, generation }) });
        },
        (error: unknown) => set({ error: describeError(error) }),
      )
      .finally(() => reading.delete(flight));
  },
  keepScroll(scroll) {
    set({ scroll });
  },
}));

/** The group's `index`th link, if a page holding it was read. */
export function linkAt(pages: HealthState['pages'], id: string, index: number): ResolvedLink | undefined {
  return pages.get(`${id}\n${Math.floor(index / linksPerPage)}`)?.links[index % linksPerPage];
}

/** Every issue the status bar counts: the sum of the index's counts, whatever kinds it has. */
export function issueCount(counts: HealthCounts | null): number {
  if (!counts) return 0;
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}
