import { describe, expect, it } from 'vitest';
import { VaultLinkResolver, type ResolverNote } from '../../../../src/shared/links/link-resolver';
import { fileKeys, linkKey } from '../../../../src/shared/links/link-keys';

function note(path: string, extra: Partial<ResolverNote> = {}): ResolverNote {
  return { path, aliases: [], headings: [], blocks: [], ...extra };
}

const link = (target: string, subpath: string | null = null) => ({ target, subpath });

describe('resolving wikilinks the way Obsidian does', () => {
  it('matches names case-insensitively and across Unicode normalization, with .md optional', () => {
    const resolver = new VaultLinkResolver([note('Zettel.md'), note('people/Cafe\u0301 owner.md')]);
    expect(resolver.resolve(link('zettel'), 'x.md')).toMatchObject({ status: 'resolved', path: 'Zettel.md' });
    expect(resolver.resolve(link('ZETTEL.md'), 'x.md')).toMatchObject({ path: 'Zettel.md' });
    expect(resolver.resolve(link('Caf\u00e9 Owner'), 'x.md')).toMatchObject({
      path: 'people/Cafe\u0301 owner.md',
    });
    expect(resolver.resolve(link('Missing'), 'x.md')).toMatchObject({
      status: 'broken',
      path: null,
      reason: 'No note named “Missing”.',
    });
    expect(resolver.resolve(link('missing.png'), 'x.md').reason).toBe('No file named “missing.png”.');
    expect(resolver.resolve(link('v1.2'), 'x.md').reason).toBe('No note named “v1.2”.');
  });

  it('prefers the same folder, then the shortest path, then alphabetical order, and says it was ambiguous', () => {
    const resolver = new VaultLinkResolver([
      note('a/b/Idea.md'),
      note('z/Idea.md'),
      note('c/Idea.md'),
      note('c/Other.md'),
    ]);
    expect(resolver.resolve(link('Idea'), 'a/b/Source.md')).toMatchObject({
      status: 'ambiguous',
      path: 'a/b/Idea.md',
      candidates: ['a/b/Idea.md', 'c/Idea.md', 'z/Idea.md'],
    });
    const fromRoot = resolver.resolve(link('Idea'), 'Root.md');
    expect(fromRoot).toMatchObject({ status: 'ambiguous', path: 'c/Idea.md' });
    expect(fromRoot.reason).toMatch(/3 files are named “Idea”; chose c\/Idea.md/);
  });

  it('matches a path from the root, then as a suffix, and ./ ../ relative to the linking note', () => {
    const resolver = new VaultLinkResolver([note('a/b/Note.md'), note('b/Note.md'), note('x/y/Deep.md')]);
    expect(resolver.resolve(link('b/Note'), 'Home.md')).toMatchObject({
      status: 'resolved',
      path: 'b/Note.md',
    });
    expect(resolver.resolve(link('y/Deep'), 'Home.md')).toMatchObject({
      status: 'resolved',
      path: 'x/y/Deep.md',
    });
    expect(resolver.resolve(link('a/b/Note.md'), 'Home.md')).toMatchObject({ path: 'a/b/Note.md' });
    expect(resolver.resolve(link('./Note'), 'a/b/Here.md')).toMatchObject({ path: 'a/b/Note.md' });
    expect(resolver.resolve(link('../../b/Note'), 'a/b/Here.md')).toMatchObject({ path: 'b/Note.md' });
    expect(resolver.resolve(link('../../../Note'), 'a/b/Here.md')).toMatchObject({
      status: 'broken',
      reason: expect.stringContaining('outside the vault'),
    });
  });

  it('resolves attachments by full name, notes with dots in their names, and self links', () => {
    const resolver = new VaultLinkResolver(
      [note('v1.2 release.md', { headings: [{ level: 2, text: 'Changes', line: 3 }] })],
      ['assets/diagram.png', 'docs/spec.pdf'],
    );
    expect(resolver.resolve(link('diagram.png'), 'x.md')).toMatchObject({
      path: 'assets/diagram.png',
      kind: 'attachment',
    });
    expect(resolver.resolve(link('docs/spec.pdf', 'page=3'), 'x.md')).toMatchObject({
      status: 'resolved',
      kind: 'attachment',
    });
    expect(resolver.resolve(link('diagram'), 'x.md')).toMatchObject({ status: 'broken' });
    expect(resolver.resolve(link('v1.2 release'), 'x.md')).toMatchObject({
      path: 'v1.2 release.md',
      kind: 'note',
    });
    expect(resolver.resolve(link('', 'Changes'), 'v1.2 release.md')).toMatchObject({
      status: 'resolved',
      path: 'v1.2 release.md',
      subpathLine: 3,
    });
  });

  it('leaves a link in a note naming only an alias unresolved, as Obsidian does, saying whose alias it is', () => {
    const resolver = new VaultLinkResolver([
      note('people/Niklas Luhmann.md', { aliases: ['Luhmann'] }),
      note('Luhmann notes.md'),
      note('zh/图谱视图.md', { aliases: ['Graph view'] }),
    ]);
    expect(resolver.resolve(link('luhmann'), 'x.md')).toEqual({
      status: 'broken',
      path: null,
      kind: null,
      candidates: ['people/Niklas Luhmann.md'],
      viaAlias: true,
      subpathLine: null,
      reason:
        "“luhmann” is an alias of Niklas Luhmann, not a note's name: Obsidian leaves the link unresolved.",
    });
    expect(resolver.resolve(link('Luhmann notes'), 'x.md')).toMatchObject({ viaAlias: false });
    // A note's name wins over another note's alias; once it is gone, the link is broken, not redirected.
    resolver.setNote(note('en/Graph view.md'));
    expect(resolver.resolve(link('Graph view'), 'x.md')).toMatchObject({ path: 'en/Graph view.md' });
    resolver.removeNote('en/Graph view.md');
    expect(resolver.resolve(link('Graph view'), 'x.md')).toMatchObject({ status: 'broken', path: null });
  });

  it('lets an alias name its note in a chat message, marked as reached by its alias', () => {
    const resolver = new VaultLinkResolver([
      note('people/Niklas Luhmann.md', {
        aliases: ['Luhmann'],
        headings: [{ level: 2, text: 'Life', line: 4 }],
      }),
      note('a/Shared.md', { aliases: ['Both'] }),
      note('b/c/Other.md', { aliases: ['Both'] }),
    ]);
    expect(resolver.resolveInMessage(link('luhmann', 'Life'))).toMatchObject({
      status: 'resolved',
      path: 'people/Niklas Luhmann.md',
      viaAlias: true,
      subpathLine: 4,
    });
    expect(resolver.resolveInMessage(link('Both'))).toMatchObject({
      status: 'ambiguous',
      path: 'a/Shared.md',
      viaAlias: true,
    });
    expect(resolver.resolve(link('Both'), 'x.md').reason).toBe(
      "“Both” is an alias of Shared and Other, not a note's name: Obsidian leaves the link unresolved.",
    );
    expect(resolver.resolveInMessage(link('Niklas Luhmann'))).toMatchObject({ viaAlias: false });
  });

  it('checks headings (with heading paths) and blocks, reporting a broken subpath apart from a missing note', () => {
    const headings = [
      { level: 1, text: 'Method', line: 1 },
      { level: 2, text: 'Why: the reasons', line: 5 },
      { level: 3, text: 'Details', line: 9 },
      { level: 2, text: 'Other', line: 12 },
      { level: 3, text: 'Details', line: 15 },
    ];
    const resolver = new VaultLinkResolver([
      note('Method.md', { headings, blocks: [{ id: 'key-1', line: 7 }] }),
    ]);
    expect(resolver.resolve(link('Method', 'why  the reasons'), 'x.md')).toMatchObject({ subpathLine: 5 });
    expect(resolver.resolve(link('Method', 'Other#Details'), 'x.md')).toMatchObject({
      status: 'resolved',
      subpathLine: 15,
    });
    expect(resolver.resolve(link('Method', 'Method#Details'), 'x.md')).toMatchObject({ subpathLine: 9 });
    expect(resolver.resolve(link('Method', '^KEY-1'), 'x.md')).toMatchObject({ subpathLine: 7 });
    expect(resolver.resolve(link('Method', 'Nope#Details'), 'x.md')).toMatchObject({
      status: 'broken-subpath',
    });
    expect(resolver.resolve(link('Method', '^gone'), 'x.md')).toMatchObject({
      status: 'broken-subpath',
      path: 'Method.md',
      reason: 'No block ^gone in “Method”.',
    });
  });

  it('leaves the subpaths of a note known by name only unchecked until it is read', () => {
    const resolver = new VaultLinkResolver([note('Later.md', { unread: true })]);
    expect(resolver.resolve(link('Later', 'Some heading'), 'x.md')).toMatchObject({
      status: 'resolved',
      path: 'Later.md',
      subpathLine: null,
      reason: null,
    });
    resolver.setNote(note('Later.md', { headings: [{ level: 2, text: 'Some heading', line: 3 }] }));
    expect(resolver.resolve(link('Later', 'Some heading'), 'x.md')).toMatchObject({ subpathLine: 3 });
    expect(resolver.resolve(link('Later', 'Other heading'), 'x.md')).toMatchObject({
      status: 'broken-subpath',
    });
  });

  it('follows notes being added, renamed and removed', () => {
    const resolver = new VaultLinkResolver();
    expect(resolver.resolve(link('Later'), 'x.md').status).toBe('broken');
    resolver.setNote(note('Later.md'));
    expect(resolver.resolve(link('Later'), 'x.md').status).toBe('resolved');
    resolver.setNote(note('sub/Later.md'));
    expect(resolver.resolve(link('Later'), 'x.md').status).toBe('ambiguous');
    resolver.removeNote('Later.md');
    expect(resolver.resolve(link('Later'), 'x.md')).toMatchObject({
      status: 'resolved',
      path: 'sub/Later.md',
    });
  });

  it('keys links and files so that only links sharing a key can change', () => {
    expect(linkKey('folder/Caf\u00e9.md')).toBe(fileKeys('x/Cafe\u0301.md')[0]);
    expect(linkKey('../Up')).toBe('up');
    expect(fileKeys('a/Diagram.PNG', ['Alias'])).toEqual(['diagram.png', 'alias']);
  });
});
