import type { PinnedNote } from '../../shared/context-items-domain';
import { countTokens } from '../context/token-count';
import type { SessionItemRow } from './session-items-store';

/**
 * A chat's pinned notes as the panel lists them: present, moved (the pin followed a rename) or gone,
 * with what each would cost whole.
 */
export async function pinnedNotes(
  rows: readonly SessionItemRow[],
  index: { note(path: string): { title: string } | null },
  readNote: (path: string) => Promise<{ content: string }>,
): Promise<PinnedNote[]> {
  const pinned: PinnedNote[] = [];
  for (const row of rows) {
    const note = index.note(row.key);
    const content = note
      ? await readNote(row.key).then(
          (file) => file.content,
          () => '',
        )
      : '';
    pinned.push({
      path: row.key,
      title: note?.title ?? row.title,
      state: !note ? 'gone' : row.previousKey ? 'moved' : 'present',
      previousPath: row.previousKey,
      tokens: note ? countTokens(JSON.stringify({ title: note.title, path: row.key, content })) : 0,
    });
  }
  return pinned;
}
