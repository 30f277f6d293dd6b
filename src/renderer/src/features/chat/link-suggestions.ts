import type { NoteTitle } from '../../../../shared/index-domain';
import { foldForSearch } from '../../../../shared/search/search-folding';

/** A note offered for the `[[` being typed, under the title or alias that matched. */
export interface Suggestion {
  label: string;
  title: string;
  path: string;
}

/** Each note's labels (title, then aliases) folded as search folds words, worked out once per list. */
const foldedLabels = new WeakMap<NoteTitle, string[]>();

function labelsOf(note: NoteTitle): string[] {
  let folded = foldedLabels.get(note);
  if (!folded) {
    folded = [note.title, ...note.aliases].map(foldForSearch);
    foldedLabels.set(note, folded);
  }
  return folded;
}

/**
 * Notes whose title or an alias contains what was typed, those starting with it first; at most 8. Case
 * and Latin accents are folded (`resume` offers `Résumé`), as search does; Thai and Indic vowel signs are
 * not (`ลิงก์` is not `ลงก์`).
 */
export function suggestionsFor(titles: readonly NoteTitle[], query: string): Suggestion[] {
  const wanted = foldForSearch(query.trim());
  const found: (Suggestion & { starts: boolean })[] = [];
  for (const note of titles) {
    const labels = labelsOf(note);
    const at = labels.findIndex((label) => label.includes(wanted));
    if (at < 0) continue;
    const label = at === 0 ? note.title : note.aliases[at - 1]!;
    found.push({ label, title: note.title, path: note.path, starts: labels[at]!.startsWith(wanted) });
  }
  return found
    .sort((a, b) => Number(!a.starts) - Number(!b.starts))
    .slice(0, 8)
    .map(({ starts: _starts, ...suggestion }) => suggestion);
}
