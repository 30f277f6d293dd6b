import type { PinnedNote } from '../../shared/context-items-domain';
import type { SessionItemRow } from './session-items-store';

/**
 * A chat's pinned notes as the panel lists them: present, moved (the pin followed a rename) or gone,
 * with what each takes in the chat's next request (`counts`, the context meter's, by path).
 */
export function pinnedNotes(
  rows: readonly SessionItemRow[],
  index: { note(path: string): { title: string } | null },
  counts: ReadonlyMap<string, number>,
): PinnedNote[] {
  return rows.map((row) => {
    const note = index.note(row.key);
    return {
      path: row.key,
      title: note?.title ?? row.title,
      state: !note ? 'gone' : row.previousKey ? 'moved' : 'present',
      previousPath: row.previousKey,
      tokens: note ? (counts.get(row.key) ?? null) : null,
    };
  });
}
