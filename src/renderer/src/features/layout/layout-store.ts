import { create } from 'zustand';

/** Below this width the references leave the splits for a drawer, so the chat keeps its room. */
export const narrowQuery = '(max-width: 1199px)';

export type Sidebar = 'tree' | 'references';

/** What the right sidebar shows: the notes answers used, or what the chat holds besides its messages. */
export type RightTab = 'references' | 'context';

const rightTabKey = 'kasten.layout.rightTab';

function savedRightTab(): RightTab {
  try {
    return localStorage.getItem(rightTabKey) === 'context' ? 'context' : 'references';
  } catch {
    return 'references';
  }
}

/** Shows a tab of the right sidebar, remembered for the next start. */
export function showRightTab(tab: RightTab): void {
  useLayoutStore.setState({ rightTab: tab });
  try {
    localStorage.setItem(rightTabKey, tab);
  } catch {
    // A full or disabled storage only costs remembering the tab.
  }
}

interface LayoutState {
  /** The window is narrow: references open as a drawer over the note, the tree starts collapsed. */
  narrow: boolean;
  /** Mirrors the splits (the library owns the sizes); the drawer in narrow mode counts as references. */
  treeCollapsed: boolean;
  referencesCollapsed: boolean;
  /** The references drawer shown over the workspace in narrow mode. */
  drawerOpen: boolean;
  /** The tree shown over the chat, in a window too narrow to fit it beside the chat and the note. */
  treeDrawerOpen: boolean;
  rightTab: RightTab;
  /** Set by the splits once they are mounted; a click or a shortcut goes through it. */
  toggle(sidebar: Sidebar): void;
}

/** Which sidebars show and how the workspace gives way when narrow; the sizes live in the splits. */
export const useLayoutStore = create<LayoutState>(() => ({
  narrow: typeof window !== 'undefined' && window.matchMedia(narrowQuery).matches,
  treeCollapsed: false,
  referencesCollapsed: false,
  drawerOpen: false,
  treeDrawerOpen: false,
  rightTab: typeof window !== 'undefined' ? savedRightTab() : 'references',
  toggle() {},
}));

/** Ctrl/Cmd+\ for the tree, Ctrl/Cmd+Shift+\ for the references (by key position, so any layout works). */
export function sidebarForShortcut(
  event: Pick<KeyboardEvent, 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
): Sidebar | null {
  if (event.code !== 'Backslash' || event.altKey || !(event.ctrlKey || event.metaKey)) return null;
  return event.shiftKey ? 'references' : 'tree';
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const shortcutLabels: Record<Sidebar, string> = {
  tree: isMac ? '⌘\\' : 'Ctrl+\\',
  references: isMac ? '⇧⌘\\' : 'Ctrl+Shift+\\',
};
