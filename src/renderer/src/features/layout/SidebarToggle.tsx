import { shortcutLabels, useLayoutStore, type Sidebar } from './layout-store';

const names: Record<Sidebar, string> = { tree: 'note tree', references: 'references and context' };

/** A header button that hides or shows a sidebar, naming its shortcut. */
export function SidebarToggle({ sidebar }: { sidebar: Sidebar }) {
  const shown = useLayoutStore((state) =>
    sidebar === 'tree'
      ? !state.treeCollapsed || state.treeDrawerOpen
      : state.narrow
        ? state.drawerOpen
        : !state.referencesCollapsed,
  );
  const toggle = useLayoutStore((state) => state.toggle);
  const label = `${shown ? 'Hide' : 'Show'} the ${names[sidebar]}`;
  return (
    <button
      type="button"
      className={`icon-button sidebar-toggle sidebar-toggle-${sidebar}`}
      aria-label={label}
      aria-pressed={shown}
      title={`${label} (${shortcutLabels[sidebar]})`}
      onClick={() => toggle(sidebar)}
    >
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" fill="none" stroke="currentColor" />
        {sidebar === 'tree' ? (
          <rect x="2" y="3" width="4" height="10" fill="currentColor" opacity={shown ? 0.6 : 0.15} />
        ) : (
          <rect x="10" y="3" width="4" height="10" fill="currentColor" opacity={shown ? 0.6 : 0.15} />
        )}
      </svg>
    </button>
  );
}
