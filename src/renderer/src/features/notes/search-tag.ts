import { useLayoutStore } from '../layout/layout-store';
import { useSearchStore } from '../search/search-store';

/** Searches the vault for `tag:#tag`, as a click on a tag does in Obsidian, and shows the search. */
export function searchTag(tag: string): void {
  useSearchStore.getState().set({ query: `tag:#${tag}` });
  const layout = useLayoutStore.getState();
  if (layout.treeCollapsed && !layout.treeDrawerOpen) layout.toggle('tree');
}
