// Rules both extractors apply to text, so that they differ only in how they tokenize Markdown.

/** `#tag` at the start of a text run or after whitespace; letters, digits, `_`, `-`, `/`; not all digits. */
const tagPattern = /(?:^|(?<=\s))#([\p{L}\p{N}_\-/]+)/gu;

export function tagsIn(text: string): string[] {
  return tagsAt(text).map(({ tag }) => tag);
}

/** The tags of a text run and where each starts (at its `#`); a renderer shows them, the index counts them. */
export function tagsAt(text: string): { tag: string; index: number }[] {
  const tags: { tag: string; index: number }[] = [];
  // Most text runs hold no `#`; the pattern's look-behind is slow to fail on each of their characters.
  if (!text.includes('#')) return tags;
  for (const match of text.matchAll(tagPattern)) {
    const tag = match[1]!.replace(/\/+$/, '');
    if (tag !== '' && !/^[\d/]+$/.test(tag)) tags.push({ tag, index: match.index });
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

const wordCharacter = /[\p{L}\p{N}]/u;

function isWordCode(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  return wordCharacter.test(String.fromCodePoint(code));
}

/**
 * Words: runs of letters and digits, joined by `'`, `’` or `-` (`it's`, `well-known`). A loop rather
 * than a global match of `[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*`, which built an array of every word and
 * took a twelfth of a note's parse time; the unit test holds the two equal.
 */
export function countWords(text: string): number {
  let words = 0;
  // Whether the previous character is part of a word, and whether it joins words after a word.
  let afterWord = false;
  let afterJoiner = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.codePointAt(index)!;
    if (code > 0xffff) index++;
    if (isWordCode(code)) {
      if (!afterWord && !afterJoiner) words++;
      afterWord = true;
      afterJoiner = false;
    } else {
      afterJoiner = afterWord && (code === 0x27 || code === 0x2019 || code === 0x2d);
      afterWord = false;
    }
  }
  return words;
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
