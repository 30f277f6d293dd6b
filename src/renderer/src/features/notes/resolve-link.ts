/**
 * A simple stand-in for the vault resolver (which lands with the vault engine): case-insensitive,
 * `.md` optional, paths matched from the root or as a suffix, same folder → shortest → alphabetical.
 */
export function resolveLinkTarget(
  target: string,
  candidates: readonly string[],
  fromPath: string,
): string | null {
  const wanted = target.normalize('NFC').toLowerCase().replace(/\.md$/, '');
  if (wanted === '') return null;
  const stem = (path: string) => path.normalize('NFC').toLowerCase().replace(/\.md$/, '');
  const matches = candidates.filter((path) => {
    const candidate = stem(path);
    return candidate === wanted || candidate.endsWith(`/${wanted}`);
  });
  const folder = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/') + 1) : '';
  matches.sort(
    (a, b) =>
      Number(!a.startsWith(folder) || a.slice(folder.length).includes('/')) -
        Number(!b.startsWith(folder) || b.slice(folder.length).includes('/')) ||
      a.length - b.length ||
      a.localeCompare(b),
  );
  return matches[0] ?? null;
}

/** Splits `Note#Heading` into the note part and the subpath. */
export function splitSubpath(link: string): { target: string; subpath: string | null } {
  const hash = link.indexOf('#');
  return hash < 0
    ? { target: link, subpath: null }
    : { target: link.slice(0, hash), subpath: link.slice(hash + 1) };
}
