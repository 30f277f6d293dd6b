// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HealthLinkPage, HealthSummary } from '../../../src/shared/health-domain';
import type { HealthCounts, ResolvedLink } from '../../../src/shared/index-domain';
import type { KastenApi } from '../../../src/shared/kasten-api';

/** The main process as the health store reaches it; each answer waits until the test gives it. */
const summary = vi.fn<(input?: { folder?: string }) => Promise<HealthSummary>>();
const links =
  vi.fn<
    (input: {
      kind: string;
      key: string;
      folder?: string;
      offset: number;
      limit: number;
    }) => Promise<HealthLinkPage>
  >();
const counts: HealthCounts = {
  broken: 0,
  aliasLinks: 0,
  ambiguous: 250,
  brokenSubpaths: 0,
  warnings: 0,
  notices: 0,
};
window.kasten = {
  vault: { issues: () => Promise.resolve(counts) },
  health: { summary, links },
} as unknown as KastenApi;

const { useHealthStore, linkAt, linksPerPage } =
  await import('../../../src/renderer/src/features/health/health-store');

const emptySummary = (folder: string | null): HealthSummary => ({
  folder,
  kinds: [],
  warnings: [],
  notices: [],
});
const canvas = { id: 'ambiguous\ncanvas', kind: 'ambiguous', key: 'canvas' };
const page = (from: number, source = 'a.md'): HealthLinkPage => ({
  total: 250,
  links: Array.from({ length: linksPerPage }, (_, index) => ({ source, line: from + index }) as ResolvedLink),
});

/** Lets the answers given so far land. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  summary.mockReset().mockImplementation(async (input) => emptySummary(input?.folder ?? null));
  links.mockReset();
  useHealthStore.getState().reset();
});

describe('the health store', () => {
  it('reads a page of a group once while it is on its way, and keeps it for every link it holds', async () => {
    useHealthStore.getState().show(true);
    await settle();
    let answer!: (page: HealthLinkPage) => void;
    links.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { wantLink } = useHealthStore.getState();
    wantLink(canvas, 0);
    wantLink(canvas, 5);
    expect(links).toHaveBeenCalledTimes(1);
    expect(links).toHaveBeenCalledWith({ kind: 'ambiguous', key: 'canvas', offset: 0, limit: linksPerPage });

    answer(page(0));
    await settle();
    expect(linkAt(useHealthStore.getState().pages, canvas.id, 5)?.line).toBe(5);
    wantLink(canvas, 99);
    expect(links).toHaveBeenCalledTimes(1);
    links.mockResolvedValue(page(100));
    wantLink(canvas, 100);
    expect(links).toHaveBeenLastCalledWith(expect.objectContaining({ offset: 100 }));
  });

  it('reads a page again after the summary is read anew, showing the old one until then', async () => {
    useHealthStore.getState().show(true);
    await settle();
    links.mockResolvedValue(page(0, 'old.md'));
    useHealthStore.getState().wantLink(canvas, 0);
    await settle();

    await useHealthStore.getState().load();
    expect(linkAt(useHealthStore.getState().pages, canvas.id, 0)?.source).toBe('old.md');
    links.mockResolvedValue(page(0, 'new.md'));
    useHealthStore.getState().wantLink(canvas, 0);
    await settle();
    expect(links).toHaveBeenCalledTimes(2);
    expect(linkAt(useHealthStore.getState().pages, canvas.id, 0)?.source).toBe('new.md');
  });

  it('filters by folder: forgets the open groups, the pages and the scroll, and drops a page read for the whole vault', async () => {
    useHealthStore.getState().show(true);
    await settle();
    useHealthStore.getState().toggleGroup(canvas.id);
    useHealthStore.getState().keepScroll({ offset: 900, measured: [] });
    let answer!: (page: HealthLinkPage) => void;
    links.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    useHealthStore.getState().wantLink(canvas, 0);

    useHealthStore.getState().setFolder('ar');
    expect(useHealthStore.getState()).toMatchObject({ folder: 'ar', summary: null, scroll: null });
    expect(useHealthStore.getState().expanded.size).toBe(0);
    await settle();
    expect(summary).toHaveBeenLastCalledWith({ folder: 'ar' });
    expect(useHealthStore.getState().summary?.folder).toBe('ar');

    answer(page(0));
    await settle();
    expect(useHealthStore.getState().pages.size).toBe(0);
    links.mockResolvedValue(page(0, 'ar/x.md'));
    useHealthStore.getState().wantLink(canvas, 0);
    expect(links).toHaveBeenLastCalledWith(expect.objectContaining({ folder: 'ar' }));
  });

  it('keeps the view as it was left when closed, and forgets it when another vault opens', async () => {
    const { show, toggleGroup, toggleSection, keepScroll } = useHealthStore.getState();
    show(true);
    await settle();
    toggleGroup(canvas.id);
    toggleSection('broken');
    keepScroll({ offset: 1200, measured: [] });
    show(false);
    show(true);
    expect(useHealthStore.getState().scroll?.offset).toBe(1200);
    expect([...useHealthStore.getState().expanded]).toEqual([canvas.id]);
    expect([...useHealthStore.getState().folded]).toEqual(['broken']);
    expect(useHealthStore.getState().summary).not.toBeNull();

    useHealthStore.getState().reset();
    expect(useHealthStore.getState()).toMatchObject({
      shown: false,
      summary: null,
      scroll: null,
      folder: '',
    });
    expect(useHealthStore.getState().expanded.size).toBe(0);
  });
});
