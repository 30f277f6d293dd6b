import type { RelatedNote } from '../../shared/embedding-domain';
import type { NoteInfo, ResolvedLink } from '../../shared/index-domain';
import { folderOf, linkKey } from '../../shared/links/link-keys';

/** What the index knows about a note's neighbours (VaultIndex is one). */
export interface RelatedSources {
  outgoing(path: string): ResolvedLink[];
  backlinks(path: string): ResolvedLink[];
  sharingTags(path: string, limit: number): { path: string; title: string; tags: string[] }[];
  note(path: string): NoteInfo | null;
}

/** A note similar to another one, and why: "similar: 0.82" by meaning, "similar words: …" by words. */
export interface SimilarReason {
  path: string;
  reason: string;
  /** Cosine similarity when found by meaning. */
  similarity: number | null;
}

/** Whether `other` has the same file name as the note at `path`, in another folder (a translation, a copy). */
export function sameName(path: string, other: string): boolean {
  return other !== path && linkKey(other) === linkKey(path);
}

/**
 * The first `limit` similar notes of another name and, after them, those of the same name: in a vault with
 * a folder per language, a note's translations would otherwise take every place (they share its title and
 * its code), and set the bar that keeps a note "close to the best" (see `close`) out of reach of the others.
 */
export function besideSameNames<T>(
  path: string,
  similar: readonly T[],
  pathOf: (item: T) => string,
  limit: number,
  close: (items: readonly T[]) => T[] = (items) => [...items],
): T[] {
  const twins = similar.filter((item) => sameName(path, pathOf(item)));
  const others = similar.filter((item) => !sameName(path, pathOf(item)));
  const kept = close(others).slice(0, limit);
  const best = close([...kept, ...twins]);
  return [...kept, ...twins.filter((twin) => best.includes(twin)).slice(0, limit)];
}

/**
 * The notes related to the note at `path`, each with every reason: it links there, it links here, shared
 * tags, similar meaning or words. A similar note that neither links to nor from it is a `missingLink`,
 * unless it has the same file name in another folder (`sameNameIn`: a translation or a copy, which a link
 * would not help). Notes with more reasons come first, notes of the same name after the others with as
 * many, then the more similar.
 */
export function relatedNotes(
  path: string,
  index: RelatedSources,
  similar: readonly SimilarReason[],
  limit = 20,
): RelatedNote[] {
  const related = new Map<string, RelatedNote>();
  const linked = new Set<string>();
  const add = (other: string | null, reason: string, similarity: number | null = null) => {
    if (!other || other === path) return;
    const note = related.get(other) ?? {
      path: other,
      title: index.note(other)?.title ?? other,
      reasons: [],
      similarity: null,
      missingLink: false,
      sameNameIn: sameName(path, other) ? folderOf(other) : null,
    };
    if (!note.reasons.includes(reason)) note.reasons.push(reason);
    note.similarity ??= similarity;
    related.set(other, note);
  };
  for (const link of index.outgoing(path)) {
    if (link.status === 'broken' || link.resolved === null || !index.note(link.resolved)) continue;
    linked.add(link.resolved);
    add(link.resolved, 'linked from here');
  }
  for (const link of index.backlinks(path)) {
    linked.add(link.source);
    add(link.source, 'links here');
  }
  for (const other of index.sharingTags(path, limit)) {
    add(other.path, `shares ${other.tags.map((tag) => `#${tag}`).join(', ')}`);
  }
  // Found by words, notes have no similarity: they keep the order they were found in.
  const rank = new Map(similar.map((other, position) => [other.path, position]));
  for (const other of similar) {
    add(other.path, other.reason, other.similarity);
    const note = related.get(other.path)!;
    if (!linked.has(other.path) && note.sameNameIn === null) note.missingLink = true;
  }
  const twin = (note: RelatedNote) => (note.sameNameIn === null ? 0 : 1);
  return [...related.values()]
    .sort(
      (a, b) =>
        b.reasons.length - a.reasons.length ||
        twin(a) - twin(b) ||
        (b.similarity ?? -2) - (a.similarity ?? -2) ||
        (rank.get(a.path) ?? similar.length) - (rank.get(b.path) ?? similar.length) ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    )
    .slice(0, limit);
}
