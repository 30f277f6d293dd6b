import type { LinkStatus } from '../index-domain';
import type { BlockFact, HeadingFact } from '../markdown/note-facts';
import { folderOf, headingKey, isNoteFile, lastSegment, nameKey, withoutMd } from './link-keys';
import { findSubpath } from './subpath';

export { fileKeys, linkKey } from './link-keys';

/** What the resolver knows about a note. Paths are vault-relative with `/`. */
export interface ResolverNote {
  path: string;
  aliases: string[];
  headings: HeadingFact[];
  blocks: BlockFact[];
  /** Known by name only, not read yet (a first index pass): its headings and blocks are not checked. */
  unread?: boolean;
}

export interface LinkResolution {
  status: LinkStatus;
  /** The chosen file; also set when ambiguous or when only the subpath is missing. */
  path: string | null;
  kind: 'note' | 'attachment' | null;
  /** Every file the link could mean, the chosen one first, when ambiguous. */
  candidates: string[];
  viaAlias: boolean;
  /** Line of the heading or block the subpath names. */
  subpathLine: number | null;
  /** Why it is broken or ambiguous, in a sentence. */
  reason: string | null;
}

function addTo(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key);
  if (!list) map.set(key, [path]);
  else if (!list.includes(path)) list.push(path);
}

function removeFrom(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key)?.filter((entry) => entry !== path);
  if (!list || list.length === 0) map.delete(key);
  else map.set(key, list);
}

/** Same folder as the linking note first, then fewest folders deep, then shortest, then alphabetical. */
function preference(fromFolder: string) {
  return (a: string, b: string) => {
    const sameA = folderOf(a) === fromFolder ? 0 : 1;
    const sameB = folderOf(b) === fromFolder ? 0 : 1;
    if (sameA !== sameB) return sameA - sameB;
    const depth = a.split('/').length - b.split('/').length;
    if (depth !== 0) return depth;
    if (a.length !== b.length) return a.length - b.length;
    return nameKey(a) < nameKey(b) ? -1 : nameKey(a) > nameKey(b) ? 1 : a < b ? -1 : a > b ? 1 : 0;
  };
}

/**
 * Resolves wikilinks the way Obsidian does. One instance mirrors the vault's files; the index, the note
 * viewer and chat all ask it. Lookups are map hits by normalized name; only suffix paths scan a list.
 */
export class VaultLinkResolver {
  private readonly notes = new Map<string, ResolverNote>();
  private readonly notesByName = new Map<string, string[]>();
  private readonly notesByPath = new Map<string, string>();
  private readonly attachmentsByName = new Map<string, string[]>();
  private readonly attachmentsByPath = new Map<string, string>();
  private readonly notesByAlias = new Map<string, string[]>();
  /** Each note's headings as link keys, computed on first use: a cold index checks ~15k subpaths. */
  private readonly headingKeys = new WeakMap<ResolverNote, string[]>();

  constructor(notes: Iterable<ResolverNote> = [], attachments: Iterable<string> = []) {
    for (const note of notes) this.setNote(note);
    for (const path of attachments) this.addAttachment(path);
  }

  setNote(note: ResolverNote): void {
    this.removeNote(note.path);
    this.notes.set(note.path, note);
    addTo(this.notesByName, nameKey(withoutMd(lastSegment(note.path))), note.path);
    this.notesByPath.set(nameKey(withoutMd(note.path)), note.path);
    for (const alias of note.aliases) addTo(this.notesByAlias, nameKey(alias.trim()), note.path);
  }

  removeNote(path: string): void {
    const note = this.notes.get(path);
    if (!note) return;
    this.notes.delete(path);
    removeFrom(this.notesByName, nameKey(withoutMd(lastSegment(path))), path);
    this.notesByPath.delete(nameKey(withoutMd(path)));
    for (const alias of note.aliases) removeFrom(this.notesByAlias, nameKey(alias.trim()), path);
  }

  addAttachment(path: string): void {
    addTo(this.attachmentsByName, nameKey(lastSegment(path)), path);
    this.attachmentsByPath.set(nameKey(path), path);
  }

  removeAttachment(path: string): void {
    removeFrom(this.attachmentsByName, nameKey(lastSegment(path)), path);
    this.attachmentsByPath.delete(nameKey(path));
  }

  /**
   * Resolves `link` as written in the note at `fromPath` (`''` for a link from outside any note). As in
   * Obsidian, an alias is a name for the suggester, not for links: `[[AI]]` naming only an alias is
   * broken, its reason saying whose alias it is and `candidates` listing the notes that have it.
   */
  resolve(link: { target: string; subpath: string | null }, fromPath: string): LinkResolution {
    return this.resolveFrom(link, fromPath, false);
  }

  /**
   * Resolves a link typed in a chat message: from the vault's root, and an alias names its note (marked
   * `viaAlias`) when no file has that name.
   */
  resolveInMessage(link: { target: string; subpath: string | null }): LinkResolution {
    return this.resolveFrom(link, '', true);
  }

  /** What the resolver knows of the note at `path`, if it is one. */
  note(path: string): ResolverNote | undefined {
    return this.notes.get(path);
  }

  private resolveFrom(
    link: { target: string; subpath: string | null },
    fromPath: string,
    byAlias: boolean,
  ): LinkResolution {
    const target = link.target.trim();
    const found = target === '' ? this.self(fromPath) : this.find(target, folderOf(fromPath), byAlias);
    if (!found.path) return found;
    if (found.kind !== 'note' || !link.subpath) return found;
    const note = this.notes.get(found.path);
    if (note?.unread) return { ...found, subpathLine: null };
    const match = note
      ? findSubpath(note, link.subpath, this.headingKeysOf(note))
      : { line: null, reason: null };
    if (match.line !== null) return { ...found, subpathLine: match.line };
    return { ...found, status: 'broken-subpath', subpathLine: null, reason: match.reason };
  }

  private headingKeysOf(note: ResolverNote): string[] {
    let keys = this.headingKeys.get(note);
    if (!keys) {
      keys = note.headings.map((heading) => headingKey(heading.text));
      this.headingKeys.set(note, keys);
    }
    return keys;
  }

  private self(fromPath: string): LinkResolution {
    if (this.notes.has(fromPath)) return resolved(fromPath, 'note');
    return broken('A link to a heading needs a note to be in.');
  }

  private find(target: string, fromFolder: string, byAlias: boolean): LinkResolution {
    const relative = /^\.\.?\//.test(target);
    if (relative || target.startsWith('/')) {
      const path = relative ? joinRelative(fromFolder, target) : target.replace(/^\/+/, '');
      if (path === null) return broken(`“${target}” leads outside the vault.`);
      return this.exact(path) ?? broken(`No file at “${path}”.`);
    }
    if (target.includes('/')) {
      const exact = this.exact(target);
      if (exact) return exact;
      return this.suffix(target, fromFolder) ?? broken(`No note or file at “${target}”.`);
    }
    const notes = this.notesByName.get(nameKey(withoutMd(target)));
    if (notes) return choose(notes, 'note', fromFolder, target, false);
    const attachments = this.attachmentsByName.get(nameKey(target));
    if (attachments) return choose(attachments, 'attachment', fromFolder, target, false);
    const aliased = this.notesByAlias.get(nameKey(target));
    if (aliased)
      return byAlias
        ? choose(aliased, 'note', fromFolder, target, true)
        : aliasOnly(aliased, fromFolder, target);
    // `image.png` names a file; `Note`, `v1.2` or `Dr. No` a note.
    const what =
      /\.[a-z][a-z0-9]{0,4}$/i.test(target) && !isNoteFile(target) && !/\s/.test(target) ? 'file' : 'note';
    return broken(`No ${what} named “${target}”.`);
  }

  /** A path from the vault root: a note with `.md` optional, or an attachment by its full path. */
  private exact(path: string): LinkResolution | null {
    const note = this.notesByPath.get(nameKey(withoutMd(path)));
    if (note && (isNoteFile(path) || !this.attachmentsByPath.has(nameKey(path))))
      return resolved(note, 'note');
    const attachment = this.attachmentsByPath.get(nameKey(path));
    return attachment ? resolved(attachment, 'attachment') : null;
  }

  /** `b/Note` matches `a/b/Note.md`: files named like the last segment whose path ends with the target. */
  private suffix(target: string, fromFolder: string): LinkResolution | null {
    const name = lastSegment(target);
    const ending = `/${nameKey(withoutMd(target))}`;
    const notes = (this.notesByName.get(nameKey(withoutMd(name))) ?? []).filter((path) =>
      nameKey(withoutMd(path)).endsWith(ending),
    );
    if (notes.length > 0) return choose(notes, 'note', fromFolder, target, false);
    const full = `/${nameKey(target)}`;
    const attachments = (this.attachmentsByName.get(nameKey(name)) ?? []).filter((path) =>
      nameKey(path).endsWith(full),
    );
    return attachments.length > 0 ? choose(attachments, 'attachment', fromFolder, target, false) : null;
  }
}

function resolved(path: string, kind: 'note' | 'attachment', viaAlias = false): LinkResolution {
  return { status: 'resolved', path, kind, candidates: [], viaAlias, subpathLine: null, reason: null };
}

function broken(reason: string): LinkResolution {
  return {
    status: 'broken',
    path: null,
    kind: null,
    candidates: [],
    viaAlias: false,
    subpathLine: null,
    reason,
  };
}

/** A link naming only an alias: unresolved, saying whose alias it is (see aliasFix for the link to write). */
function aliasOnly(paths: string[], fromFolder: string, target: string): LinkResolution {
  const owners = [...paths].sort(preference(fromFolder));
  return {
    ...broken(
      `“${target}” is an alias of ${listed(owners)}, not a note's name: Obsidian leaves the link unresolved.`,
    ),
    candidates: owners,
    viaAlias: true,
  };
}

/** `A`, `A and B`, `A, B and C`, `A, B, C and 4 more`: notes by their names. */
function listed(paths: string[]): string {
  const names = paths.slice(0, 3).map((path) => withoutMd(lastSegment(path)));
  if (paths.length > 3) names.push(`${paths.length - 3} more`);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

function choose(
  paths: string[],
  kind: 'note' | 'attachment',
  fromFolder: string,
  target: string,
  viaAlias: boolean,
): LinkResolution {
  if (paths.length === 1) return resolved(paths[0]!, kind, viaAlias);
  const sorted = [...paths].sort(preference(fromFolder));
  const chosen = sorted[0]!;
  const why = folderOf(chosen) === fromFolder ? 'same folder' : 'shortest path';
  const what = viaAlias ? `notes have the alias “${target}”` : `files are named “${target}”`;
  return {
    status: 'ambiguous',
    path: chosen,
    kind,
    candidates: sorted,
    viaAlias,
    subpathLine: null,
    reason: `Ambiguous: ${sorted.length} ${what}; chose ${chosen} (${why}).`,
  };
}

/** Joins `./x` or `../x` to the linking note's folder; null when it climbs above the vault root. */
function joinRelative(folder: string, target: string): string | null {
  const parts = folder === '' ? [] : folder.split('/');
  for (const segment of target.split('/')) {
    if (segment === '.' || segment === '') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}
