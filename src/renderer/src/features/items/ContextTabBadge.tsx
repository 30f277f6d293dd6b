import { useItemsStore } from './items-store';
import { addedCount, panelItems } from './session-items-view';

/** How many things the user put in this chat (pins, rules, tools, files), beside the tab's name. */
export function ContextTabBadge() {
  const count = useItemsStore((state) =>
    state.items ? addedCount(panelItems(state.items, state.pending)) : 0,
  );
  if (count === 0) return null;
  return (
    <span className="tab-count" aria-label={`, ${count} added`} data-testid="context-count">
      {count}
    </span>
  );
}
