import { AppError } from '../app-error';
import { placeEdit, type EditTarget } from './edit-placement';
import { preparedChange, readExisting, refuseNul, type PreparedWrite, type WrittenNote } from './note-writes';

/**
 * One passage of the note at `vaultPath`, or the text of one heading's section, replaced by `replacement`
 * (see placeEdit). Shown as a word diff in its section; the commit re-applies the edit over a save made
 * meanwhile only where the passage is still there once, and refuses if the note changed between being
 * shown and the approval.
 */
export async function prepareEdit(
  realRoot: string,
  vaultPath: string,
  target: EditTarget,
  replacement: string,
  written: WrittenNote,
): Promise<PreparedWrite> {
  refuseNul(replacement);
  const note = await readExisting(realRoot, vaultPath);
  let placed;
  try {
    placed = placeEdit(note.bytes, vaultPath, target, replacement);
  } catch (error) {
    throw new AppError('invalid-input', (error as Error).message);
  }
  const { bytes: result, ...shown } = placed;
  return preparedChange(
    { realRoot, vaultPath, written },
    note,
    { kind: 'edit', path: vaultPath, ...shown },
    (basis) => (basis.equals(note.bytes) ? result : placeEdit(basis, vaultPath, target, replacement).bytes),
  );
}
