import type { MarkdownIt, StateInline, Token } from 'markdown-it';
import { isWikiLinkStop, parseWikiLinkInner, type WikiLinkParts } from '../../shared/markdown/wikilink-inner';

export interface WikiLinkMeta extends WikiLinkParts {
  embed: boolean;
  /** Offsets of `[[` (or `!`) and just after `]]` in the inline source. */
  start: number;
  end: number;
}

// What the rules find is kept in `token.meta`, markdown-it's slot for plugin data.

/** What the wikilink rule found, for a `wikilink` token. */
export function wikiLinkMeta(token: Token): WikiLinkMeta {
  return token.meta as WikiLinkMeta;
}

/** Where a link or image token began in the inline source (markdown-it keeps no positions). */
export function tokenStart(token: Token): number {
  return (token.meta as { start?: number } | null)?.start ?? 0;
}

function wikiLinkRule(state: StateInline, silent: boolean): boolean {
  // Silent calls come only from link label scanning, which refuses a label holding a bracket token (no
  // links in links). micromark lets a wikilink sit in a link's text, so let the scan count its brackets.
  if (silent) return false;
  const { src, posMax } = state;
  const start = state.pos;
  let pos = start;
  const embed = src.charCodeAt(pos) === 0x21;
  if (embed) pos++;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  pos += 2;
  const innerStart = pos;
  for (;;) {
    if (pos >= posMax) return false;
    const code = src.charCodeAt(pos);
    if (isWikiLinkStop(code)) return false;
    if (code === 0x5d) break;
    pos++;
  }
  if (src.charCodeAt(pos + 1) !== 0x5d || pos + 1 >= posMax) return false;
  const parts = parseWikiLinkInner(src.slice(innerStart, pos));
  if (parts === null) return false;
  const meta: WikiLinkMeta = { ...parts, embed, start, end: pos + 2 };
  state.push('wikilink', '', 0).meta = meta;
  state.pos = pos + 2;
  return true;
}

/** Wraps an inline rule so the token it opens remembers where in the source it began. */
function recordingStart(rule: (state: StateInline, silent: boolean) => boolean) {
  return (state: StateInline, silent: boolean): boolean => {
    const start = state.pos;
    const before = state.tokens.length;
    const matched = rule(state, silent);
    if (!matched || silent) return matched;
    // Pending text is flushed into a token first, so the opened token is the first link or image after it.
    for (let index = before; index < state.tokens.length; index++) {
      const token = state.tokens[index]!;
      if (token.type === 'link_open' || token.type === 'image') {
        token.meta = { ...(token.meta as object | null), start };
        break;
      }
    }
    return matched;
  };
}

/** markdown-it plugin mirroring the micromark wikilink construct, plus start offsets of links and images. */
export function markdownItWikiLinks(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'wikilink', wikiLinkRule);
  for (const name of ['link', 'image'] as const) {
    const rule = md.inline.ruler.getRules('').find((candidate) => candidate.name === name);
    if (rule) md.inline.ruler.at(name, recordingStart(rule));
  }
}
