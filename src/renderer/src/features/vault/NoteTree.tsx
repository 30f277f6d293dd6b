import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNoteStore } from '../notes/note-store';
import { treeKeyAction, visibleRows, type TreeRow } from './tree-rows';
import { useTreeStore } from './tree-store';
import { useVaultStore } from './vault-store';

/** Height of a row in pixels; `.tree-row` has this fixed height in vault.css. */
const rowHeight = 28;

function Row({
  row,
  selected,
  active,
  onToggle,
  onOpen,
}: {
  row: TreeRow;
  selected: boolean;
  active: boolean;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
}) {
  const { entry, depth, expanded } = row;
  const indent = { paddingInlineStart: `${0.5 + depth * 0.9}rem` };
  const activeClass = active ? ' active' : '';
  // The tree is one tab stop; arrow keys move between rows (see NoteTree).
  if (entry.kind === 'folder') {
    return (
      <button
        type="button"
        tabIndex={-1}
        className={`tree-row tree-folder${activeClass}`}
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
      <span className={`tree-row tree-attachment${activeClass}`} style={indent} title={entry.path}>
        <span className="tree-name">{entry.name}</span>
      </span>
    );
  }
  return (
    <button
      type="button"
      tabIndex={-1}
      className={`tree-row tree-note${selected ? ' selected' : ''}${activeClass}`}
      style={indent}
      onClick={() => onOpen(entry.path)}
      title={entry.path}
    >
      <span className="tree-name">{entry.name}</span>
    </button>
  );
}

/**
 * The vault's folders and notes; a click opens the note in the viewer. Folders start closed and stay as
 * the user leaves them; the open note's folders open to show it, however it was opened. Only the rows in
 * view (and a few around them) are in the page: a 20k-note vault rendered whole took seconds and every
 * scroll paid for it.
 */
export function NoteTree() {
  const entries = useVaultStore((state) => state.entries);
  const openPath = useNoteStore((state) => state.path);
  const visit = useNoteStore((state) => state.visit);
  const open = useNoteStore((state) => state.open);
  const { expanded, toggle: toggleFolder, collapseAll, reveal } = useTreeStore();
  const rows = useMemo(() => visibleRows(entries, expanded), [entries, expanded]);
  const scroller = useRef<HTMLDivElement>(null);
  const tree = useRef<HTMLUListElement>(null);
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
  const [activePath, setActivePath] = useState<string | null>(null);
  const activeIndex = activePath === null ? -1 : rows.findIndex((row) => row.entry.path === activePath);
  // The note to bring into view once its row is in the tree (the tree may still be loading).
  const [revealing, setRevealing] = useState<string | null>(null);
  useEffect(() => {
    if (openPath === null) return;
    reveal(openPath);
    setRevealing(openPath);
  }, [openPath, visit, reveal]);
  const revealedIndex = revealing === null ? -1 : rows.findIndex((row) => row.entry.path === revealing);
  useEffect(() => {
    if (revealedIndex < 0) return;
    virtualizer.scrollToIndex(revealedIndex);
    setActivePath(revealing);
    setRevealing(null);
  }, [revealedIndex, revealing, virtualizer]);

  // A clicked row becomes the active one, and the keys go on from there.
  const activate = (path: string) => {
    setActivePath(path);
    tree.current?.focus({ preventScroll: true });
  };
  const toggle = (path: string) => {
    activate(path);
    toggleFolder(path);
  };
  const openNote = (path: string) => {
    activate(path);
    void open(path);
  };
  // treeKeyAction only moves to rows that exist.
  const moveTo = (index: number) => {
    const row = rows[index];
    if (!row) return;
    setActivePath(row.entry.path);
    virtualizer.scrollToIndex(index);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const row = rows[activeIndex];
    const action = treeKeyAction(event.key, rows, activeIndex);
    if (action === null) return;
    event.preventDefault();
    if (action.kind === 'move') moveTo(action.index);
    else if (action.kind === 'toggle' && row) toggle(row.entry.path);
    else if (action.kind === 'open' && row) openNote(row.entry.path);
  };

  return (
    <>
      <div className="tree-toolbar">
        <button
          type="button"
          className="link-button"
          onClick={collapseAll}
          disabled={expanded.size === 0}
          title="Close every folder"
        >
          Collapse all
        </button>
      </div>
      <div className="note-tree-scroller" ref={scroller}>
        <ul
          ref={tree}
          className="note-tree"
          role="tree"
          aria-label="Notes"
          tabIndex={0}
          aria-activedescendant={activeIndex >= 0 ? `note-tree-row-${activeIndex}` : undefined}
          onKeyDown={onKeyDown}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <li
                key={row.entry.path}
                id={`note-tree-row-${item.index}`}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-expanded={row.entry.kind === 'folder' ? row.expanded : undefined}
                aria-selected={row.entry.path === openPath}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <Row
                  row={row}
                  selected={row.entry.path === openPath}
                  active={item.index === activeIndex}
                  onToggle={toggle}
                  onOpen={openNote}
                />
              </li>
            );
          })}
        </ul>
      </div>
    </>
  );
}
