import { isArabicWord, procliticForms } from './arabic-proclitics';
import { slowAsPrefix, type QueryWord, type SomeWordsTerm } from './search-query';
import { queryStems } from './search-stems';
import type { SearchNode } from './search-syntax';

/**
 * How loosely a query's words match, from the tightest: `whole`, each word as a whole word; `prefix`,
 * also as the start of a longer word (`cli` in `Clipper`); `stem`, also as another word of the same stem
 * in the note's language (`notes` finds `noted`). A note matching tighter ranks above every note that
 * matches only looser.
 */
export type MatchLevel = 'whole' | 'prefix' | 'stem';
export const matchLevels: readonly MatchLevel[] = ['whole', 'prefix', 'stem'];

/**
 * An FTS5 expression for some tokens in a row, the last one as a prefix when `prefix`; an Arabic word
 * with each of its proclitic forms (see arabic-proclitics). Quoted: searched for as typed, never read as
 * FTS5 syntax. It matches the text columns only: every term of the stem columns begins with a
 * private-use mark (see search-stems), which no word of a query holds, so no column filter is needed
 * (one cost a third more on a word in all of 10k notes).
 */
export function tokensExpression(tokens: readonly string[], prefix: boolean): string {
  const star = prefix ? '*' : '';
  if (tokens.length === 1 && isArabicWord(tokens[0]!)) {
    return `(${procliticForms(tokens[0]!)
      .map((form) => `"${form}"${star}`)
      .join(' OR ')})`;
  }
  return `"${tokens.join(' ')}"${star}`;
}

/**
 * A word as written, or by its stems in the notes of a stemmed language (a word written as such there
 * counts in bm25 both ways). Keeping its stems to where the word is not written (`NOT`) made the
 * some-words ranking of a question twice as slow on 10k notes, for no better ranking of the eval
 * questions (recall@5 0.875 both, MRR 0.739 against 0.743 without).
 */
function withStems(word: QueryWord, prefix: boolean): string {
  const text = tokensExpression(word.tokens, prefix);
  const stems = stemsOf(word);
  if (stems.length === 0) return text;
  return `(${text} OR {title_stems stems} : (${stems.map((stem) => `"${stem}"`).join(' OR ')}))`;
}

/** A word's stems, as the stem columns hold them (a run of words has none). */
const stemsOf = (word: QueryWord) => (word.tokens.length === 1 ? queryStems(word.tokens[0]!) : []);

/** A query word at a level. A slow word (see slowAsPrefix) is a prefix only while it is being typed. */
export function wordExpression(word: QueryWord, level: MatchLevel): string {
  const prefix = level !== 'whole' && (!word.complete || !slowAsPrefix(word));
  return level === 'stem' ? withStems(word, prefix) : tokensExpression(word.tokens, prefix);
}

/** Whether FTS5 can match a node alone: text only (no filter), and no NOT without something beside it. */
export function isTextOnly(node: SearchNode): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return true;
    case 'not':
      return false;
    case 'or':
      return node.children.every(isTextOnly);
    case 'and': {
      const positive = node.children.filter((child) => child.kind !== 'not');
      const negated = node.children.flatMap((child) => (child.kind === 'not' ? [child.child] : []));
      return positive.length > 0 && positive.every(isTextOnly) && negated.every(isTextOnly);
    }
    default:
      return false;
  }
}

/** The FTS5 expression of a text-only node (see isTextOnly) at a level. */
export function nodeExpression(node: SearchNode, level: MatchLevel): string {
  switch (node.kind) {
    case 'word':
      return wordExpression(node.word, level);
    case 'phrase':
      return tokensExpression(node.tokens, false);
    case 'or':
      return `(${node.children.map((child) => nodeExpression(child, level)).join(' OR ')})`;
    case 'and': {
      const positive = node.children.filter((child) => child.kind !== 'not');
      const negated = node.children.flatMap((child) => (child.kind === 'not' ? [child.child] : []));
      const all = positive.map((child) => nodeExpression(child, level)).join(' AND ');
      // What must not occur is left out however loosely it matches: `-link` leaves out `links`.
      const none = negated.map((child) => ` NOT ${nodeExpression(child, 'prefix')}`).join('');
      return `(${all}${none})`;
    }
    default:
      throw new Error(`No FTS5 expression for a ${node.kind} node.`);
  }
}

/** Whether any word of the nodes is matched differently at `level` than at the level before it. */
export function loosens(nodes: readonly SearchNode[], level: MatchLevel): boolean {
  const words = nodes.flatMap(wordsOf);
  if (level === 'prefix') return words.some((word) => !word.complete || !slowAsPrefix(word));
  if (level === 'stem') return words.some((word) => stemsOf(word).length > 0);
  return true;
}

/** The words of a node, outside what it negates. */
export function wordsOf(node: SearchNode): QueryWord[] {
  switch (node.kind) {
    case 'word':
      return [node.word];
    case 'and':
    case 'or':
      return node.children.flatMap(wordsOf);
    default:
      return [];
  }
}

/** An FTS5 query matching notes that hold any of the terms. */
export function someWordsExpression(terms: readonly SomeWordsTerm[]): string {
  return terms.map(termExpression).join(' OR ');
}

/** The expression that matches one some-words term: whole (or by its stem), or as a prefix. */
export function termExpression({ tokens, prefix }: SomeWordsTerm): string {
  if (prefix) return tokensExpression(tokens, true);
  return withStems({ text: tokens.join(''), tokens, complete: true }, false);
}
