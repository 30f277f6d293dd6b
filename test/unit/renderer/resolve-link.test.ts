import { describe, expect, it } from 'vitest';
import { resolveLinkTarget, splitSubpath } from '../../../src/renderer/src/features/notes/resolve-link';

const notes = ['Home.md', 'projects/Alpha.md', 'archive/Alpha.md', 'projects/deep/Alpha.md', 'Café.md'];

describe('wikilink target matching (stand-in resolver)', () => {
  it('matches names case-insensitively with .md optional', () => {
    expect(resolveLinkTarget('home', notes, 'x.md')).toBe('Home.md');
    expect(resolveLinkTarget('Home.md', notes, 'x.md')).toBe('Home.md');
  });

  it('prefers the linking note’s folder, then the shortest path, then alphabetical', () => {
    expect(resolveLinkTarget('Alpha', notes, 'projects/deep/Other.md')).toBe('projects/deep/Alpha.md');
    expect(resolveLinkTarget('Alpha', notes, 'Home.md')).toBe('archive/Alpha.md');
  });

  it('matches paths from the root or as a suffix', () => {
    expect(resolveLinkTarget('Projects/Alpha', notes, 'Home.md')).toBe('projects/Alpha.md');
    expect(resolveLinkTarget('deep/alpha', notes, 'Home.md')).toBe('projects/deep/Alpha.md');
  });

  it('normalizes Unicode and reports a missing note as null', () => {
    expect(resolveLinkTarget('Cafe\u0301', notes, 'Home.md')).toBe('Café.md');
    expect(resolveLinkTarget('Nowhere', notes, 'Home.md')).toBeNull();
  });

  it('splits heading and block subpaths', () => {
    expect(splitSubpath('Note#Heading#Sub')).toEqual({ target: 'Note', subpath: 'Heading#Sub' });
    expect(splitSubpath('#Local')).toEqual({ target: '', subpath: 'Local' });
    expect(splitSubpath('Note')).toEqual({ target: 'Note', subpath: null });
  });
});
