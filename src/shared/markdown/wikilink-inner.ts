/** What a `[[...]]` says, split the way Obsidian reads it. */
export interface WikiLinkParts {
  target: string;
  subpath: string | null;
  display: string | null;
}

/**
 * Splits the text between `[[` and `]]`: the first `|` (or `\|`, needed inside tables) starts the display
 * text, the first `#` before it starts the subpath. Null when there is neither target nor subpath
 * (`[[]]`, `[[ ]]`, `[[|x]]`, `[[#]]`), which is not a link.
 */
export function parseWikiLinkInner(inner: string): WikiLinkParts | null {
  const pipe = inner.indexOf('|');
  let reference = pipe < 0 ? inner : inner.slice(0, pipe);
  if (pipe >= 0 && reference.endsWith('\\')) reference = reference.slice(0, -1);
  const display = pipe < 0 ? null : inner.slice(pipe + 1).trim();
  const hash = reference.indexOf('#');
  const target = (hash < 0 ? reference : reference.slice(0, hash)).trim();
  const subpath = hash < 0 ? null : reference.slice(hash + 1).trim() || null;
  if (target === '' && subpath === null) return null;
  return { target, subpath, display: display === '' ? null : display };
}

/** Characters that end a wikilink attempt: no line breaks and no nested brackets inside `[[...]]`. */
export function isWikiLinkStop(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x5b;
}

/** The text a wikilink shows: its display text, else what it points at. */
export function wikiLinkLabel(parts: WikiLinkParts): string {
  if (parts.display !== null) return parts.display;
  return parts.subpath === null ? parts.target : `${parts.target}#${parts.subpath}`;
}
