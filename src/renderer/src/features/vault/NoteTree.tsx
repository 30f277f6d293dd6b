import { useState } from 'react';
import type { TreeEntry } from '../../../../shared/domain';
import { useNoteStore } from '../notes/note-store';
import { useVaultStore } from './vault-store';

function Entry({ entry, depth }: { entry: TreeEntry; depth: number }) {
  const [expanded, setExpanded] = useState(depth === 0);
  const openPath = useNoteStore((state) => state.path);
  const open = useNoteStore((state) => state.open);
  const indent = { paddingInlineStart: `${0.5 + depth * 0.9}rem` };

  if (entry.kind === 'folder') {
    return (
      <li role="treeitem" aria-expanded={expanded} aria-selected={false}>
        <button
          type="button"
          className="tree-row tree-folder"
          style={indent}
          onClick={() => setExpanded(!expanded)}
        >
          <span className="tree-caret" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          <span className="tree-name">{entry.name}</span>
          {entry.noteCount > 0 && <span className="tree-count">{entry.noteCount}</span>}
        </button>
        {expanded && (
          <ul role="group">
            {entry.children.map((child) => (
              <Entry key={child.path} entry={child} depth={depth + 1} />
            ))}
          </ul>
        )}
      </li>
    );
  }
  if (entry.kind === 'attachment') {
    return (
      <li role="treeitem" aria-selected={false}>
        <span className="tree-row tree-attachment" style={indent} title={entry.path}>
          <span className="tree-name">{entry.name}</span>
        </span>
      </li>
    );
  }
  const selected = openPath === entry.path;
  return (
    <li role="treeitem" aria-selected={selected}>
      <button
        type="button"
        className={`tree-row tree-note${selected ? ' selected' : ''}`}
        style={indent}
        onClick={() => void open(entry.path)}
        title={entry.path}
      >
        <span className="tree-name">{entry.name}</span>
      </button>
    </li>
  );
}

/** The vault's folders and notes; a click opens the note in the viewer. */
export function NoteTree() {
  const entries = useVaultStore((state) => state.entries);
  return (
    <ul className="note-tree" role="tree" aria-label="Notes">
      {entries.map((entry) => (
        <Entry key={entry.path} entry={entry} depth={0} />
      ))}
    </ul>
  );
}
