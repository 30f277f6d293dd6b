import { createHash } from 'node:crypto';
import MarkdownIt, { type Token } from 'markdown-it';
import { locateFrontmatter } from '../../shared/markdown/frontmatter';
import { headingText } from '../../shared/markdown/text-rules';
import { wikiLinkLabel } from '../../shared/markdown/wikilink-inner';
import { countTokens } from '../request/count/token-count';
import { markdownItWikiLinks, wikiLinkMeta } from '../index/markdown-it-wikilinks';

/** A passage of a note: a section under its headings, or a part of a long one. */
export interface NoteChunk {
  /** The headings above it, outermost first ([] before the first heading). */
  headingPath: string[];
  /** The Markdown of the passage, without its heading. */
  text: string;
  /** SHA-1 of what is embedded (chunkInput): equal hashes, equal vectors. */
  hash: string;
}

export interface ChunkOptions {
  /** A section longer than this is cut between blocks, then lines, then words (default 400). */
  maxTokens?: number;
  /** Passages kept per note; the rest of a longer note is not embedded (default 256). */
  maxChunks?: number;
}

// The same reading of Markdown as the index's (fast-extract.ts): a `#` in a code fence is no heading.
const md = new MarkdownIt('default', { html: true, linkify: false })
  .disable('reference')
  .use(markdownItWikiLinks);

const defaultMaxTokens = 400;
const defaultMaxChunks = 256;
/** Characters read of a note per passage kept: past them the note cannot fill its passages anyway. */
const charactersPerToken = 8;
/**
 * A text longer than this many characters per token allowed is taken to be too long without counting:
 * the tokenizer takes time growing with the square of a run without spaces (a 150 KB one: 19 s).
 */
const surelyTooLong = 10;

/** What the model is given for a passage: the note's title and headings, then the passage. */
export function chunkInput(title: string, headingPath: readonly string[], text: string): string {
  const path = headingPath[0] === title ? headingPath : [title, ...headingPath];
  return `${path.join(' > ')}\n\n${text}`;
}

/**
 * Cuts a note into passages by its headings: one per section, a section longer than `maxTokens` cut
 * between its blocks (paragraphs, lists, fences), a block longer than that between lines, a line
 * between words. A note longer than `maxChunks` passages is cut short (`truncated`).
 */
export function chunkNote(
  title: string,
  content: string,
  options: ChunkOptions = {},
): { chunks: NoteChunk[]; truncated: boolean } {
  const maxTokens = options.maxTokens ?? defaultMaxTokens;
  const maxChunks = options.maxChunks ?? defaultMaxChunks;
  const maxCharacters = maxChunks * maxTokens * charactersPerToken;
  let source = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let truncated = false;
  if (source.length > maxCharacters) {
    // At a line's end when one is near, else wherever the limit falls (a note of one huge line).
    const newline = source.lastIndexOf('\n', maxCharacters);
    let cut = newline > maxCharacters * 0.9 ? newline + 1 : maxCharacters;
    if (/[\uD800-\uDBFF]/.test(source[cut - 1] ?? '')) cut--;
    source = source.slice(0, cut);
    truncated = true;
  }
  const lines = source.split('\n');
  const { bodyStart } = locateFrontmatter(lines);
  // Blank lines in place of the frontmatter keep markdown-it's line numbers those of `lines`.
  const body = '\n'.repeat(bodyStart) + lines.slice(bodyStart).join('\n');

  const chunks: NoteChunk[] = [];
  const add = (headingPath: string[], text: string) => {
    if (chunks.length >= maxChunks) {
      truncated = true;
      return;
    }
    chunks.push({ headingPath, text, hash: hashOf(chunkInput(title, headingPath, text)) });
  };
  for (const section of sections(md.parse(body, {}), lines)) {
    for (const text of pack(section.blocks, maxTokens)) add(section.headingPath, text);
  }
  return { chunks, truncated };
}

interface Section {
  headingPath: string[];
  /** The source of each top-level block, trimmed, none empty. */
  blocks: string[];
}

/** The note's top-level blocks grouped under the headings they follow. */
function sections(tokens: Token[], lines: string[]): Section[] {
  const result: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { headingPath: [], blocks: [] };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.level !== 0 || token.nesting === -1 || !token.map) continue;
    if (token.type === 'heading_open') {
      if (current.blocks.length > 0) result.push(current);
      const level = Number(token.tag.slice(1));
      while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop();
      stack.push({ level, text: headingText(inlineText(tokens[index + 1]?.children ?? [])) });
      current = { headingPath: stack.map((heading) => heading.text), blocks: [] };
      continue;
    }
    const text = lines.slice(token.map[0], token.map[1]).join('\n').trim();
    if (text !== '') current.blocks.push(text);
  }
  if (current.blocks.length > 0) result.push(current);
  return result;
}

/** Blocks joined into passages of at most `maxTokens`, cutting blocks that are longer on their own. */
function pack(blocks: string[], maxTokens: number): string[] {
  const passages: string[] = [];
  let parts: string[] = [];
  let tokens = 0;
  const flush = () => {
    if (parts.length > 0) passages.push(parts.join('\n\n'));
    parts = [];
    tokens = 0;
  };
  for (const block of blocks) {
    const size = tokensIn(block, maxTokens);
    if (size > maxTokens) {
      flush();
      passages.push(...cutBlock(block, size, maxTokens));
      continue;
    }
    if (tokens + size > maxTokens) flush();
    parts.push(block);
    tokens += size;
  }
  flush();
  return passages;
}

/** A long block cut between lines, and a long line between words (or anywhere, in a run without spaces). */
function cutBlock(block: string, size: number, maxTokens: number): string[] {
  const lines = block.split('\n');
  if (lines.length === 1) return cutLine(block, size, maxTokens);
  const pieces: string[] = [];
  let piece: string[] = [];
  let tokens = 0;
  for (const line of lines) {
    const lineTokens = tokensIn(line, maxTokens);
    if (lineTokens > maxTokens) {
      if (piece.length > 0) pieces.push(piece.join('\n'));
      pieces.push(...cutLine(line, lineTokens, maxTokens));
      piece = [];
      tokens = 0;
      continue;
    }
    if (tokens + lineTokens > maxTokens && piece.length > 0) {
      pieces.push(piece.join('\n'));
      piece = [];
      tokens = 0;
    }
    piece.push(line);
    tokens += lineTokens;
  }
  if (piece.length > 0) pieces.push(piece.join('\n'));
  return pieces.map((text) => text.trim()).filter((text) => text !== '');
}

/**
 * Cuts by the line's own characters per token, at the last space before the limit when there is one; a
 * piece that still counts too many tokens is made a tenth shorter until it fits.
 */
function cutLine(line: string, size: number, maxTokens: number): string[] {
  // Uncounted (surely too long): CJK text has about a token a character, English four characters.
  const perToken = Number.isFinite(size) ? line.length / size : 2;
  let step = Math.max(1, Math.floor(perToken * maxTokens));
  const pieces: string[] = [];
  let start = 0;
  while (start < line.length) {
    const end = cutAt(line, start, step);
    const piece = line.slice(start, end).trim();
    if (end - start > 1 && countTokens(piece) > maxTokens) {
      step = Math.max(1, Math.floor(Math.min(step, end - start) * 0.9));
      continue;
    }
    if (piece !== '') pieces.push(piece);
    start = end;
  }
  return pieces;
}

/** Where a piece of at most `step` characters from `start` ends: a space, else not inside a surrogate pair. */
function cutAt(line: string, start: number, step: number): number {
  let end = Math.min(line.length, start + step);
  if (end === line.length) return end;
  const space = line.lastIndexOf(' ', end);
  if (space > start + step / 2) return space;
  if (/[\uD800-\uDBFF]/.test(line[end - 1] ?? '') && end - 1 > start) end--;
  return end;
}

/** Plain text of a heading's inline tokens; wikilinks by their label. */
function inlineText(tokens: Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += ' ';
    else if (token.type === 'wikilink') text += wikiLinkLabel(wikiLinkMeta(token));
    else if (token.type === 'image') text += inlineText(token.children ?? []);
  }
  return text;
}

/** Tokens in `text`, or infinity for a text surely longer than `maxTokens` (see surelyTooLong). */
function tokensIn(text: string, maxTokens: number): number {
  return text.length > maxTokens * surelyTooLong ? Number.POSITIVE_INFINITY : countTokens(text);
}

function hashOf(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
