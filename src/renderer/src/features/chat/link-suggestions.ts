import type { NoteTitle } from '../../../../shared/index-domain';
import { foldForSearch } from '../../../../shared/search/search-folding';

/** A note offered for the `[[` being typed, under the title, file name or alias that matched. */
export interface Suggestion {
  label: string;
  title: string;
  path: string;
  /** The shortest link target leading to the note (see NoteTitle.link). */
  link: string;
  /** The alias that matched, written after `|` so the message reads as typed; null for a title or name. */
  alias: string | null;
}

/** A note's names, folded as search folds words: title, file name (when another), aliases. */
interface Labels {
  shown: string[];
  folded: string[];
  /** Index of the first alias in `shown`. */
  firstAlias: number;
}

const labelCache = new WeakMap<NoteTitle, Labels>();

function labelsOf(note: NoteTitle): Labels {
  let labels = labelCache.get(note);
  if (!labels) {
    const name = note.path.slice(note.path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
    const names = foldForSearch(name) === foldForSearch(note.title) ? [note.title] : [note.title, name];
    const shown = [...names, ...note.aliases];
    labels = { shown, folded: shown.map(foldForSearch), firstAlias: names.length };
    labelCache.set(note, labels);
  }
  return labels;
}

/** How well a label matches: 0 the whole label, 1 its start, 2 a word's start, 3 inside a word; -1 not. */
function matchRank(label: string, wanted: string): number {
  if (label === wanted) return 0;
  if (label.startsWith(wanted)) return 1;
  const at = label.indexOf(wanted);
  if (at < 0) return -1;
  return /[\p{L}\p{N}]/u.test(label[at - 1]!) ? 3 : 2;
}

/**
 * Notes whose title, file name or an alias contains what was typed: exact matches first, then those
 * starting with it, then a word of it, then the rest, shorter names first; at most 8. Case and Latin
 * accents are folded (`resume` offers `Résumé`), as search does; Thai and Indic vowel signs are not
 * (`ลิงก์` is not `ลงก์`).
 */
export function suggestionsFor(titles: readonly NoteTitle[], query: string): Suggestion[] {
  const wanted = foldForSearch(query.trim());
  const found: { suggestion: Suggestion; rank: number; length: number }[] = [];
  for (const note of titles) {
    const labels = labelsOf(note);
    let best = -1;
    let rank = Number.POSITIVE_INFINITY;
    labels.folded.forEach((label, index) => {
      const labelRank = matchRank(label, wanted);
      if (labelRank >= 0 && labelRank < rank) [best, rank] = [index, labelRank];
    });
    if (best < 0) continue;
    const label = labels.shown[best]!;
    const alias = best >= labels.firstAlias ? label : null;
    const { title, path, link } = note;
    // With nothing typed yet every note matches alike: the list keeps its order (by title).
    const length = wanted === '' ? 0 : label.length;
    found.push({ suggestion: { label, title, path, link, alias }, rank, length });
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.length - b.length)
    .slice(0, 8)
    .map((entry) => entry.suggestion);
}

/** What choosing a suggestion writes between `[[` and `]]`: the link, and the alias shown when one matched. */
export function linkText(suggestion: Suggestion): string {
  return suggestion.alias === null ? suggestion.link : `${suggestion.link}|${suggestion.alias}`;
}
