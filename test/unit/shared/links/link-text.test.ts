import { describe, expect, it } from 'vitest';
import type { ResolvedLink } from '../../../../src/shared/index-domain';
import { VaultLinkResolver, type ResolverNote } from '../../../../src/shared/links/link-resolver';
import { aliasFix, shortestLinkTarget } from '../../../../src/shared/links/link-text';

function note(path: string, aliases: string[] = []): ResolverNote {
  return { path, aliases, headings: [], blocks: [] };
}

describe('the shortest link that leads to a note', () => {
  const resolver = new VaultLinkResolver([
    note('en/Plugins/Canvas.md'),
    note('ko/플러그인/Canvas.md'),
    note('de/Plugins/Canvas.md'),
    note('Unique.md'),
    note('deep/er/Lonely.md'),
    note('x/Index.md'),
    note('Index.md'),
  ]);

  it('is the name when no other note has it, wherever the note is', () => {
    expect(shortestLinkTarget(resolver, 'Unique.md', '')).toBe('Unique');
    expect(shortestLinkTarget(resolver, 'deep/er/Lonely.md', '')).toBe('Lonely');
  });

  it('adds folders, as few as make it lead to that twin and no other', () => {
    expect(shortestLinkTarget(resolver, 'ko/플러그인/Canvas.md', '')).toBe('플러그인/Canvas');
    // Plugins/Canvas is also German: one folder more.
    expect(shortestLinkTarget(resolver, 'en/Plugins/Canvas.md', '')).toBe('en/Plugins/Canvas');
    expect(shortestLinkTarget(resolver, 'de/Plugins/Canvas.md', '')).toBe('de/Plugins/Canvas');
    // `[[Index]]` would reach the root one but is ambiguous: the link names it by its path.
    expect(shortestLinkTarget(resolver, 'x/Index.md', '')).toBe('x/Index');
    expect(shortestLinkTarget(resolver, 'Index.md', '')).toBe('Index');
  });

  it('each twin’s link resolves to that twin', () => {
    for (const path of [
      'en/Plugins/Canvas.md',
      'ko/플러그인/Canvas.md',
      'de/Plugins/Canvas.md',
      'x/Index.md',
    ]) {
      const target = shortestLinkTarget(resolver, path, '');
      expect(resolver.resolve({ target, subpath: null }, '')).toMatchObject({ status: 'resolved', path });
      expect(resolver.resolveInMessage({ target, subpath: null })).toMatchObject({
        status: 'resolved',
        path,
      });
    }
  });
});

describe('the fix for a link naming an alias', () => {
  const resolver = new VaultLinkResolver([
    note('AI/Artificial Intelligence.md', ['AI']),
    note('Other/Artificial Intelligence.md'),
  ]);
  const linkTo = (target: string, extra: Partial<ResolvedLink> = {}) => {
    const resolution = resolver.resolve({ target, subpath: extra.subpath ?? null }, 'Notes/Source.md');
    return {
      source: 'Notes/Source.md',
      kind: 'wikilink' as const,
      embed: false,
      target,
      subpath: null,
      display: null,
      status: resolution.status,
      viaAlias: resolution.viaAlias,
      candidates: resolution.candidates,
      ...extra,
    };
  };

  it('names the note by its shortest link and keeps what the link showed', () => {
    expect(aliasFix(linkTo('AI'), resolver)).toBe('[[AI/Artificial Intelligence|AI]]');
    expect(aliasFix(linkTo('ai', { subpath: 'History' }), resolver)).toBe(
      '[[AI/Artificial Intelligence#History|ai]]',
    );
    expect(aliasFix(linkTo('AI', { display: 'machines that think' }), resolver)).toBe(
      '[[AI/Artificial Intelligence|machines that think]]',
    );
    expect(aliasFix(linkTo('AI', { embed: true }), resolver)).toBe('![[AI/Artificial Intelligence]]');
  });

  it('is null for links that resolve or lead nowhere', () => {
    expect(aliasFix(linkTo('Artificial Intelligence'), resolver)).toBeNull();
    expect(aliasFix(linkTo('Nothing'), resolver)).toBeNull();
  });
});
