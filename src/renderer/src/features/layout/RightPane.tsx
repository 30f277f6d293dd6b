import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { showRightTab, useLayoutStore, type RightTab } from './layout-store';

export interface RightPaneTab {
  id: RightTab;
  label: string;
  /** Said after the label, e.g. how many items the chat has. */
  badge?: ReactNode;
  /** The sidebar's accessible name while this tab shows. */
  region: string;
  content: ReactNode;
}

/** The right sidebar: tabs (arrow keys move between them) over the panel of the chosen one. */
export function RightPane({ tabs }: { tabs: RightPaneTab[] }) {
  const chosen = useLayoutStore((state) => state.rightTab);
  const shown = tabs.find((tab) => tab.id === chosen) ?? tabs[0]!;
  const id = useId();
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const next = tabs[(tabs.indexOf(shown) + step + tabs.length) % tabs.length]!;
    showRightTab(next.id);
    document.getElementById(`${id}-${next.id}`)?.focus();
  };
  return (
    <aside className="reference-panel right-pane" aria-label={shown.region}>
      <div className="right-pane-tabs" role="tablist" aria-label="Sidebar" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            id={`${id}-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={tab === shown}
            aria-controls={`${id}-panel`}
            tabIndex={tab === shown ? 0 : -1}
            data-testid={`tab-${tab.id}`}
            onClick={() => showRightTab(tab.id)}
          >
            {tab.label}
            {tab.badge}
          </button>
        ))}
      </div>
      <div
        className="right-pane-panel"
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-${shown.id}`}
      >
        {shown.content}
      </div>
    </aside>
  );
}
