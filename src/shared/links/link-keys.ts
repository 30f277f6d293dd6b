/** How names compare in links: Unicode NFC, case-insensitive. */
export function nameKey(name: string): string {
  // ASCII is already NFC; skipping ICU for it halves the resolver's time on a cold index.
  return nonAscii.test(name) ? name.normalize('NFC').toLowerCase() : name.toLowerCase();
}

// eslint-disable-next-line no-control-regex
const nonAscii = /[^\x00-\x7f]/;

export function withoutMd(name: string): string {
  return isNoteFile(name) ? name.slice(0, -3) : name;
}

export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function isNoteFile(path: string): boolean {
  return /\.md$/i.test(path);
}

/**
 * The key a link depends on: its last path segment without `.md`. Only a file answering to this key
 * (see fileKeys) can change what the link resolves to.
 */
export function linkKey(target: string): string {
  return nameKey(withoutMd(lastSegment(target.trim())));
}

/** The keys a file answers to: its name (notes without `.md`, attachments in full) and its aliases. */
export function fileKeys(path: string, aliases: readonly string[] = []): string[] {
  const name = lastSegment(path);
  return [nameKey(isNoteFile(path) ? withoutMd(name) : name), ...aliases.map((alias) => linkKey(alias))];
}

/**
 * Headings compare the way Obsidian links to them: characters a link cannot carry (`# | ^ : % [ ] \`)
 * count as spaces, runs of whitespace as one, case and Unicode form ignored.
 */
export function headingKey(heading: string): string {
  return nameKey(
    heading
      .replace(/[#|^:%[\]\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** A link key as the index stores it: FNV-1a over its UTF-16 code units, a signed 32-bit integer. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
