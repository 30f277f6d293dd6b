import { findSubpath } from '../../../../shared/links/subpath';
import { extractNote } from '../../../../shared/markdown/extract-note';

/**
 * The line of the heading or `^block` that `subpath` names in the note's own text, or null. Read from the
 * note as shown rather than from the index, which may not have read the note yet (a first index pass)
 * or may have read an older version of it.
 */
export function subpathLine(note: { path: string; content: string }, subpath: string): number | null {
  return subpathMatch(note, subpath).line;
}

/** subpathLine, with the reason when the note has no such heading or block. */
export function subpathMatch(note: { path: string; content: string }, subpath: string) {
  const name = note.path.split('/').pop()!.replace(/\.md$/i, '');
  const { headings, blocks } = extractNote(note.content, name);
  return findSubpath({ path: note.path, headings, blocks }, subpath);
}
