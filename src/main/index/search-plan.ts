import { foldForSearch } from '../../shared/search/search-folding';
import { isTextOnly, nodeExpression, wordsOf, type MatchLevel } from './search-expressions';
import { titleWords, typedText } from './exact-title';
import type { QueryWord } from './search-query';
import { isFilter, parseQuery, type SearchNode } from './search-syntax';

/** A condition on the note `n` (a row of `notes`) in SQL, with the values it takes. */
export interface SqlCondition {
  sql: string;
  parameters: (string | number)[];
}

/** How a search is run: what FTS5 ranks, what SQL filters, and what else is asked of the hits. */
export interface SearchPlan {
  /** Text nodes a hit must all match, ranked by bm25; none when filters alone choose the notes. */
  ranked: SearchNode[];
  /** Conditions on the note: the folder and tag asked for, `path:`, `file:`, `tag:`, what must not occur. */
  conditions: SqlCondition[];
  /** The words of the query in order when a note titled so is what it looks for; null with `OR`. */
  title: string[] | null;
  /**
   * The query as typed, when it reads as syntax (`-`, quotes, operators): a note whose title is exactly
   * that text is still the one looked for (`Migrating from ct-react / -vue`). Only `requested` filters it.
   */
  typed: { words: string[]; text: string } | null;
  /** The conditions of the request's own folder and tag filters. */
  requested: SqlCondition[];
  /** The words for the some-words ranking: a query of words only (filters and negations aside). */
  someWords: QueryWord[] | null;
  /** The words and phrases to mark in snippets. */
  marked: string[];
}

/** The folder and tag filters of a search request, beside what its query says. */
export interface RequestFilters {
  folder?: string;
  tag?: string;
}

/** The note's file name: its path after the last `/` (rtrim takes off every character but `/`). */
const fileName = "substr(n.path, length(rtrim(n.path, replace(n.path, '/', ''))) + 1)";

/** Letters A–Z lowered, as SQLite's lower() does: other letters are compared as written. */
const lowerAscii = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

function tagCondition(value: string): SqlCondition {
  const key = value.replace(/^#/, '').toLowerCase();
  return {
    sql: "EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND (t.tag_key = ? OR substr(t.tag_key, 1, length(?) + 1) = ? || '/'))",
    parameters: [key, key, key],
  };
}

function folderCondition(folder: string): SqlCondition {
  const prefix = folder.replace(/\/+$/, '');
  return { sql: "substr(n.path, 1, length(?) + 1) = ? || '/'", parameters: [prefix, prefix] };
}

/** A node as an SQL condition; its text is matched at `level` (what is negated, as a prefix). */
function conditionOf(node: SearchNode, level: MatchLevel): SqlCondition {
  if (isTextOnly(node)) {
    return {
      sql: 'n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)',
      parameters: [nodeExpression(node, level)],
    };
  }
  switch (node.kind) {
    case 'path':
      return { sql: 'instr(lower(n.path), ?) > 0', parameters: [lowerAscii(node.value)] };
    case 'file':
      return { sql: `instr(lower(${fileName}), ?) > 0`, parameters: [lowerAscii(node.value)] };
    case 'tag':
      return tagCondition(node.value);
    case 'not': {
      const inner = conditionOf(node.child, 'prefix');
      return { sql: `NOT (${inner.sql})`, parameters: inner.parameters };
    }
    case 'and':
    case 'or': {
      const parts = node.children.map((child) => conditionOf(child, level));
      return {
        sql: `(${parts.map((part) => part.sql).join(node.kind === 'and' ? ' AND ' : ' OR ')})`,
        parameters: parts.flatMap((part) => part.parameters),
      };
    }
    default:
      // A lone word or phrase is text only (above).
      throw new Error(`No condition for a ${node.kind} node.`);
  }
}

/** The plan for a query and the request's filters; null when the query holds nothing to search for. */
export function planSearch(query: string, filters: RequestFilters): SearchPlan | null {
  const { root } = parseQuery(query);
  const requested: SqlCondition[] = [];
  if (filters.folder) requested.push(folderCondition(filters.folder));
  if (filters.tag) requested.push(tagCondition(filters.tag));
  if (!root) return null;
  const conditions = [...requested];
  const parts = root.kind === 'and' ? root.children : [root];
  const ranked: SearchNode[] = [];
  for (const part of parts) {
    if (part.kind !== 'not' && isTextOnly(part)) ranked.push(part);
    else conditions.push(conditionOf(part, 'stem'));
  }
  const plain = parts.every((part) => part.kind === 'word' || part.kind === 'not' || isFilter(part));
  const words = ranked.flatMap(wordsOf);
  const titled = ranked.length > 0 && ranked.every((part) => part.kind === 'word' || part.kind === 'phrase');
  const title = titled ? ranked.flatMap(tokensOf).map(foldForSearch) : null;
  const typedWords = titleWords(query);
  const typed =
    typedWords.length > 0 && typedWords.join(' ') !== title?.join(' ')
      ? { words: typedWords, text: typedText(query) }
      : null;
  return {
    ranked,
    conditions,
    title,
    typed,
    requested,
    someWords: plain && words.length > 0 ? words : null,
    marked: ranked.flatMap(tokensOf),
  };
}

/** The tokens of a node's words and phrases, outside what it negates. */
function tokensOf(node: SearchNode): string[] {
  switch (node.kind) {
    case 'word':
      return node.word.tokens;
    case 'phrase':
      return node.tokens;
    case 'and':
    case 'or':
      return node.children.flatMap(tokensOf);
    default:
      return [];
  }
}
