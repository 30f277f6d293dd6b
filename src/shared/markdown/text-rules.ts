// Rules both extractors apply to text, so that they differ only in how they tokenize Markdown.

/** `#tag` at the start of a text run or after whitespace; letters, digits, `_`, `-`, `/`; not all digits. */
const tagPattern = /(?:^|(?<=\s))#([\p{L}\p{N}_\-/]+)/gu;

export function tagsIn(text: string): string[] {
  const tags: string[] = [];
  // Most text runs hold no `#`; the pattern's look-behind is slow to fail on each of their characters.
  if (!text.includes('#')) return tags;
  for (const match of text.matchAll(tagPattern)) {
    const tag = match[1]!.replace(/\/+$/, '');
    if (tag !== '' && !/^[\d/]+$/.test(tag)) tags.push(tag);
  }
  return tags;
}

/** Adds tags keeping the first spelling of each, compared case-insensitively. */
export function addTags(into: string[], seen: Set<string>, tags: string[]): void {
  for (const tag of tags) {
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    into.push(tag);
  }
}

/** A block id `^id` ending a paragraph (after whitespace, or alone). */
export function blockIdAtEnd(text: string): string | null {
  return /(?:^|\s)\^([A-Za-z0-9-]+)\s*$/.exec(text)?.[1] ?? null;
}

export function headingText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function titleFromFileName(fileName: string): string {
  return fileName.replace(/\.md$/i, '');
}

export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

export const maxLeadChars = 280;

export function leadOf(text: string): string {
  const lead = text.replace(/\s+/g, ' ').trim();
  return lead.length <= maxLeadChars ? lead : `${lead.slice(0, maxLeadChars - 1).trimEnd()}…`;
}

/** A local Markdown link destination: no scheme, not protocol-relative, not empty. */
export function localDestination(url: string): { target: string; subpath: string | null } | null {
  if (url === '' || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return null;
  const hash = url.indexOf('#');
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  const target = decode(hash < 0 ? url : url.slice(0, hash));
  const subpath = hash < 0 ? null : decode(url.slice(hash + 1)) || null;
  if (target === '' && subpath === null) return null;
  return { target, subpath };
}
