import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useNoteStore } from '../notes/note-store';
import { visibleRows, type TreeRow } from './tree-rows';
import { useVaultStore } from './vault-store';

/** Height of a row in pixels; `.tree-row` has this fixed height in styles.css. */
const rowHeight = 28;

function Row({
  row,
  selected,
  onToggle,
  onOpen,
}: {
  row: TreeRow;
  selected: boolean;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
}) {
  const { entry, depth, expanded } = row;
  const indent = { paddingInlineStart: `${0.5 + depth * 0.9}rem` };
  if (entry.kind === 'folder') {
    return (
      <button
        type="button"
        className="tree-row tree-folder"
        style={indent}
        onClick={() => onToggle(entry.path)}
      >
        <span className="tree-caret" aria-hidden="true">
          {expanded ? '▾' : '▸'}
        </span>
        <span className="tree-name">{entry.name}</span>
        {entry.noteCount > 0 && <span className="tree-count">{entry.noteCount}</span>}
      </button>
    );
  }
  if (entry.kind === 'attachment') {
    return (
      <span className="tree-row tree-attachment" style={indent} title={entry.path}>
        <span className="tree-name">{entry.name}</span>
      </span>
    );
  }
  return (
    <button
      type="button"
      className={`tree-row tree-note${selected ? ' selected' : ''}`}
      style={indent}
      onClick={() => onOpen(entry.path)}
      title={entry.path}
    >
      <span className="tree-name">{entry.name}</span>
    </button>
  );
}

/**
 * The vault's folders and notes; a click opens the note in the viewer. Only the rows in view (and a
 * few around them) are in the page: a 20k-note vault rendered whole took seconds and every scroll paid
 * for it.
 */
export function NoteTree() {
  const entries = useVaultStore((state) => state.entries);
  const openPath = useNoteStore((state) => state.path);
  const open = useNoteStore((state) => state.open);
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(entries, toggled), [entries, toggled]);
  const scroller = useRef<HTMLDivElement>(null);
  // Nothing here is memoized by hand, and the component re-renders on every scroll anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    paddingStart: 6,
    paddingEnd: 6,
  });
  const toggle = (path: string) =>
    setToggled((before) => {
      const after = new Set(before);
      if (!after.delete(path)) after.add(path);
      return after;
    });

  return (
    <div className="note-tree-scroller" ref={scroller}>
      <ul className="note-tree" role="tree" aria-label="Notes" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <li
              key={row.entry.path}
              role="treeitem"
              aria-level={row.depth + 1}
              aria-expanded={row.entry.kind === 'folder' ? row.expanded : undefined}
              aria-selected={row.entry.path === openPath}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <Row
                row={row}
                selected={row.entry.path === openPath}
                onToggle={toggle}
                onOpen={(path) => void open(path)}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
