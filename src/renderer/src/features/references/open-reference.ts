import { kasten } from '../../api';
import { useNoteStore } from '../notes/note-store';
import { isWebAddress, openWebPage } from '../web/open-web-page';

/**
 * Opens a note in the viewer, scrolled to `passage` (text as the viewer rendered it, marked) or else to
 * `subpath` (a heading or `^block`) when the note has it.
 */
export async function openReference(
  path: string,
  subpath: string | null = null,
  passage: string | null = null,
): Promise<void> {
  // A web page a question gave is cited like a note, and opens in the system browser.
  if (isWebAddress(path)) {
    openWebPage(path);
    return;
  }
  await useNoteStore.getState().open(path, null, subpath, passage);
}

/** Opens what a wikilink typed in a chat names, resolved as if written at the vault's root. */
export async function openWikiLink(target: string, subpath: string | null): Promise<boolean> {
  const [found] = await kasten.links.resolve({ links: [{ target, subpath }] }).catch(() => []);
  if (!found?.path || found.kind !== 'note') return false;
  await useNoteStore.getState().open(found.path, found.subpathLine, subpath);
  return true;
}
