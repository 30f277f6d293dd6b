import type { ReactNode } from 'react';

export interface SuggestionRow {
  key: string;
  content: ReactNode;
}

/** The list a completion offers above the composer; chosen with the mouse here, with the keys there. */
export function SuggestionList({
  label,
  rows,
  active,
  onChoose,
}: {
  label: string;
  rows: SuggestionRow[];
  active: number;
  onChoose: (index: number) => void;
}) {
  return (
    <ul className="link-suggestions" role="listbox" aria-label={label} data-testid="suggestions">
      {rows.map((row, index) => (
        <li
          key={row.key}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => {
            // The textarea keeps the focus and the caret.
            event.preventDefault();
            onChoose(index);
          }}
        >
          {row.content}
        </li>
      ))}
    </ul>
  );
}
