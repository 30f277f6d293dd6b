import { describe, expect, it } from 'vitest';
import { parseQuery, type SearchNode } from '../../../src/main/index/search-syntax';

/** A node as a short string: words as typed, `"phrases"`, `kind:value`, `-x`, `(a b)`, `(a | b)`. */
function show(node: SearchNode | null): string {
  if (!node) return '';
  switch (node.kind) {
    case 'word':
      return node.word.complete ? node.word.text : `${node.word.text}…`;
    case 'phrase':
      return `"${node.tokens.join(' ')}"`;
    case 'not':
      return `-${show(node.child)}`;
    case 'and':
      return `(${node.children.map(show).join(' ')})`;
    case 'or':
      return `(${node.children.map(show).join(' | ')})`;
    default:
      return `${node.kind}:${node.value}`;
  }
}

const parsed = (query: string) => show(parseQuery(query).root);

describe('parsing a query as Obsidian reads it', () => {
  it('needs every word, the last one still being typed', () => {
    expect(parsed('meeting work')).toBe('(meeting work…)');
    expect(parsed('meeting work ')).toBe('(meeting work)');
  });

  it('binds OR less than the words around it, and groups with parentheses', () => {
    expect(parsed('meeting work OR meetup personal')).toBe('((meeting work) | (meetup personal…))');
    expect(parsed('meeting (work OR meetup) personal')).toBe('(meeting (work | meetup) personal…)');
    // Only OR in capitals is the operator.
    expect(parsed('this or that')).toBe('(this or that…)');
  });

  it('leaves out what follows a hyphen: a word, a phrase or a group', () => {
    expect(parsed('meeting -work -meetup')).toBe('(meeting -work -meetup…)');
    expect(parsed('meeting -(work meetup)')).toBe('(meeting -(work meetup))');
    expect(parsed('meeting -"weekly sync"')).toBe('(meeting -"weekly sync")');
    // A hyphen inside a word joins its parts; a lone one is nothing.
    expect(parsed('well-known - thing')).toBe('(well known thing…)');
  });

  it('reads an exact phrase, with escaped quotes, and a phrase left open to the end', () => {
    expect(parsed('"star wars" film')).toBe('("star wars" film…)');
    expect(parsed('"they said \\"hello\\" to each"')).toBe('"they said hello to each"');
    expect(parsed('"star wa')).toBe('"star wa"');
  });

  it('reads path:, file: and tag: with a word, a quoted value or a group', () => {
    expect(parsed('path:"Daily notes/2022-07" standup')).toBe('(path:Daily notes/2022-07 standup…)');
    expect(parsed('file:.jpg')).toBe('file:.jpg');
    expect(parsed('tag:#work -tag:done')).toBe('(tag:#work -tag:done)');
    expect(parsed('tag:(work OR home) plan')).toBe('((tag:work | tag:home) plan…)');
    // Without a value, or with another name, it is words.
    expect(parsed('line:x 10:30')).toBe('(line x 10 30…)');
  });

  it('finds nothing to search for in syntax alone', () => {
    expect(parseQuery('()').root).toBeNull();
    expect(parseQuery('"" - OR').root).toBeNull();
  });

  it('counts words against the limit and says when it left some out', () => {
    const many = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    const { root, shortened } = parseQuery(many);
    expect(shortened).toBe(true);
    expect(root?.kind === 'and' && root.children.length).toBe(32);
  });
});
