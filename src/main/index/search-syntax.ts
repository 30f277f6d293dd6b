import { foldForSearch } from '../../shared/search/search-folding';
import { isWordText, maxQueryChars, maxQueryWords, queryWordPattern, type QueryWord } from './search-query';
import { wordTokens } from './word-segments';

/**
 * A search query as Obsidian's search reads it: words that must all occur, `"exact phrases"`, `OR`
 * between alternatives (it binds less than the words around it: `meeting work OR meetup personal`),
 * `-` before what must not occur, parentheses to group, and the operators `path:`, `file:` and `tag:`
 * (each with a value, a quoted value or a group: `tag:(work OR home)`).
 */
export type SearchNode =
  | { kind: 'word'; word: QueryWord }
  | { kind: 'phrase'; tokens: string[] }
  | { kind: 'path' | 'file' | 'tag'; value: string }
  | { kind: 'and' | 'or'; children: SearchNode[] }
  | { kind: 'not'; child: SearchNode };

export type FilterKind = 'path' | 'file' | 'tag';

export interface ParsedQuery {
  /** Null when the query holds nothing to search for. */
  root: SearchNode | null;
  /** Whether words were left out (see maxQueryWords, maxQueryChars). */
  shortened: boolean;
}

const filterKinds: readonly FilterKind[] = ['path', 'file', 'tag'];
const operatorPattern = /^(path|file|tag):/i;

type Token =
  | { kind: 'open' | 'close' | 'or' | 'not' }
  | { kind: 'text'; text: string; end: number }
  | { kind: 'phrase'; text: string }
  | { kind: 'operator'; filter: FilterKind };

/** Cuts a query into tokens; a quote left open runs to the end. */
function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < query.length) {
    const character = query[at]!;
    if (/\s/.test(character)) at++;
    else if (character === '(' || character === ')') {
      tokens.push({ kind: character === '(' ? 'open' : 'close' });
      at++;
    } else if (character === '"') {
      let text = '';
      at++;
      while (at < query.length && query[at] !== '"') {
        if (query[at] === '\\' && query[at + 1] === '"') at++;
        text += query[at];
        at++;
      }
      at++;
      tokens.push({ kind: 'phrase', text });
    } else if (character === '-' && at + 1 < query.length && !/[\s-]/.test(query[at + 1]!)) {
      tokens.push({ kind: 'not' });
      at++;
    } else {
      const operator = operatorPattern.exec(query.slice(at));
      if (operator && at + operator[0].length < query.length && !/\s/.test(query[at + operator[0].length]!)) {
        tokens.push({ kind: 'operator', filter: operator[1]!.toLowerCase() as FilterKind });
        at += operator[0].length;
        continue;
      }
      let end = at;
      while (end < query.length && !/[\s()"]/.test(query[end]!)) end++;
      const text = query.slice(at, end);
      tokens.push(text === 'OR' ? { kind: 'or' } : { kind: 'text', text, end });
      at = end;
    }
  }
  return tokens;
}

/** Reads the tokens into a tree, counting the words against the limit. */
class Parser {
  private at = 0;
  private words = 0;
  /** How many groups are open around the token being read. */
  private depth = 0;
  shortened = false;

  constructor(
    private readonly tokens: Token[],
    private readonly queryLength: number,
  ) {}

  /** alternatives := sequence ('OR' sequence)* */
  alternatives(filter: FilterKind | null): SearchNode | null {
    const choices: SearchNode[] = [];
    for (;;) {
      const sequence = this.sequence(filter);
      if (sequence) choices.push(sequence);
      if (this.tokens[this.at]?.kind !== 'or') break;
      this.at++;
    }
    return choices.length <= 1 ? (choices[0] ?? null) : { kind: 'or', children: choices };
  }

  /** sequence := term+ (all must hold) */
  private sequence(filter: FilterKind | null): SearchNode | null {
    const terms: SearchNode[] = [];
    for (;;) {
      const token = this.tokens[this.at];
      if (!token || token.kind === 'or') break;
      if (token.kind === 'close') {
        // A closing parenthesis ends a group; a stray one at the top is passed over.
        if (filter !== null || this.depth > 0) break;
        this.at++;
        continue;
      }
      terms.push(...this.term(filter));
    }
    return terms.length <= 1 ? (terms[0] ?? null) : { kind: 'and', children: terms };
  }

  /** term := '-' term | '(' alternatives ')' | operator value | phrase | text (several words) */
  private term(filter: FilterKind | null): SearchNode[] {
    const token = this.tokens[this.at++]!;
    switch (token.kind) {
      case 'not': {
        const negated = this.tokens[this.at] ? this.term(filter) : [];
        if (negated.length === 0) return [];
        // `-well-known` leaves out the notes holding both words, as typed together.
        return [
          { kind: 'not', child: negated.length === 1 ? negated[0]! : { kind: 'and', children: negated } },
        ];
      }
      case 'open': {
        this.depth++;
        const group = this.alternatives(filter);
        this.depth--;
        if (this.tokens[this.at]?.kind === 'close') this.at++;
        return group ? [group] : [];
      }
      case 'operator': {
        const next = this.tokens[this.at];
        if (next?.kind === 'open') return this.term(token.filter);
        if (next?.kind === 'text' || next?.kind === 'phrase') {
          this.at++;
          return [{ kind: token.filter, value: next.text }];
        }
        return [];
      }
      case 'phrase':
        if (filter) return token.text.trim() ? [{ kind: filter, value: token.text.trim() }] : [];
        return this.phrase(token.text);
      case 'text':
        if (filter) return [{ kind: filter, value: token.text }];
        return this.textWords(token.text, token.end);
      default:
        return [];
    }
  }

  private phrase(text: string): SearchNode[] {
    const tokens: string[] = [];
    for (const [word] of text.matchAll(queryWordPattern)) {
      if (isWordText(word)) tokens.push(...this.take(wordTokens(word)));
    }
    return tokens.length === 0 ? [] : [{ kind: 'phrase', tokens }];
  }

  /** The words of a run of text; `end`: where the run ends in the query (the last may be being typed). */
  private textWords(text: string, end: number): SearchNode[] {
    const nodes: SearchNode[] = [];
    const seen = new Set<string>();
    for (const match of text.matchAll(queryWordPattern)) {
      const word = match[0];
      if (!isWordText(word) || seen.has(foldForSearch(word))) continue;
      seen.add(foldForSearch(word));
      const tokens = this.take(wordTokens(word));
      if (tokens.length === 0) break;
      const complete = match.index + word.length < text.length || end < this.queryLength;
      nodes.push({ kind: 'word', word: { text: tokens.join(''), tokens, complete } });
    }
    return nodes;
  }

  /** As many of `tokens` as the word limit leaves room for. */
  private take(tokens: string[]): string[] {
    const room = Math.max(0, maxQueryWords - this.words);
    if (tokens.length > room) this.shortened = true;
    const taken = tokens.slice(0, room);
    this.words += taken.length;
    return taken;
  }
}

/** Parses what the user typed. */
export function parseQuery(query: string): ParsedQuery {
  let text = query;
  let shortened = false;
  if (text.length > maxQueryChars) {
    // Whole words only: cut before the word the limit falls in.
    const cut = text.slice(0, maxQueryChars + 1).search(/\S*$/);
    text = text.slice(0, cut > 0 ? cut : maxQueryChars);
    shortened = true;
  }
  const parser = new Parser(tokenize(text), text.length);
  const root = parser.alternatives(null);
  return { root, shortened: shortened || parser.shortened };
}

/** Whether a node is one of the filters (`path:`, `file:`, `tag:`). */
export function isFilter(node: SearchNode): node is { kind: FilterKind; value: string } {
  return (filterKinds as readonly string[]).includes(node.kind);
}
