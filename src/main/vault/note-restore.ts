import { AppError } from '../app-error';
import { confinedFailure, locateFolder, withVaultRoot } from './folder-walk';
import { hashOf, removeNote } from './note-exchange';
import { replaceConfined } from './note-writes';

/** Told the vault path of a note an undo changed or removed, so that the tree and the index follow. */
export type RestoredNote = (path: string, type: 'change' | 'unlink') => Promise<void>;

/**
 * Undoes a write Kasten made to the file at `realPath` (a vault path): `previous` put back byte for byte,
 * or, when Kasten created the file (`previous` null), the file removed — only while it holds exactly
 * what Kasten wrote (`writtenHash`). Through the same confined, lose-nothing commit as the writes
 * (exchangeNote, removeNote): a save made meanwhile is never overwritten. Throws an AppError in plain
 * words when the file changed or is gone; nothing is written then.
 */
export async function restoreNote(
  realRoot: string,
  realPath: string,
  previous: Buffer | null,
  writtenHash: string,
  restored: RestoredNote,
): Promise<void> {
  const changed = `"${realPath}" was changed after Kasten wrote it, so it was left as it is: undoing would lose those changes.`;
  if (previous !== null) {
    // A save landing while the undo is written is put back, and the undo refused.
    const build = (basis: Buffer) => {
      if (hashOf(basis) !== writtenHash) throw new AppError('invalid-input', changed);
      return previous;
    };
    await replaceConfined(realRoot, realPath, writtenHash, build, changed);
    await restored(realPath, 'change');
    return;
  }
  const segments = realPath.split('/');
  const name = segments.pop()!;
  const kept = `${name.replace(/\.md$/i, '')} (kept by Kasten ${Date.now()}).md`;
  await withVaultRoot(realRoot, async (root) => {
    const located = await locateFolder(root, segments, false);
    if (!located.exists) throw new AppError('not-found', `"${realPath}" does not exist in the vault.`);
    await removeNote(located.folder, name, writtenHash, changed, kept);
  }).catch((error: unknown) => {
    throw confinedFailure(error, realPath);
  });
  await restored(realPath, 'unlink');
}
