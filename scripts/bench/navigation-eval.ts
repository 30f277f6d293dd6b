// The navigational half of the search evaluation (scripts/eval-search.ts): each note's title typed into
// the search box, as an Obsidian user types it into the quick switcher, must bring that note first.
import { foldForSearch } from '../../src/shared/search/search-folding.ts';
import type { SearchServer } from './search-server.ts';

export interface NavigationFigures {
  vault: string;
  mode: string;
  notes: number;
  /** Notes whose title brought them first (or among their namesakes, see evaluateNavigation). */
  first: number;
  /** Notes whose title brought them within the first three. */
  inTop3: number;
  /** The titles that did not, with what came first instead. */
  misses: { title: string; path: string; rank: number | null; got: string }[];
}

/** How many hits each title search asks for; a note further down counts as not found. */
const navigationLimit = 20;

/** A title as the search box compares it: folded, its spaces collapsed. */
const titleKey = (title: string) => foldForSearch(title).replace(/\s+/g, ' ').trim();

/**
 * Searches for every note's title and counts the notes that came first. Notes sharing a title (a page
 * and its translation, two folders' `index`) cannot all be first: a note counts as first when it comes
 * within as many places as there are notes of its title.
 */
export async function evaluateNavigation(
  server: SearchServer,
  vault: string,
  mode: string,
): Promise<NavigationFigures> {
  const notes = (await server.titles()).filter(({ title }) => titleKey(title) !== '');
  const namesakes = new Map<string, number>();
  for (const { title } of notes) namesakes.set(titleKey(title), (namesakes.get(titleKey(title)) ?? 0) + 1);
  let first = 0;
  let inTop3 = 0;
  const misses: NavigationFigures['misses'] = [];
  for (const { path, title } of notes) {
    const hits = await server.search(title, navigationLimit, mode);
    const index = hits.findIndex((hit) => hit.path.normalize('NFC') === path.normalize('NFC'));
    const places = namesakes.get(titleKey(title)) ?? 1;
    if (index !== -1 && index < places) first++;
    else misses.push({ title, path, rank: index === -1 ? null : index + 1, got: hits[0]?.path ?? 'no hits' });
    if (index !== -1 && index < places + 2) inTop3++;
  }
  return { vault, mode, notes: notes.length, first, inTop3, misses };
}
