import type { ResolvedLink } from '../index-domain';
import type { VaultLinkResolver } from './link-resolver';
import { withoutMd } from './link-keys';

/**
 * The shortest target that leads to the note at `path` from the note at `fromPath` (`''`: a chat
 * message) and to no other note: its name when no other note has it, else its path with as few leading
 * folders as make it unique (`Plugins/Canvas`), else its whole path — Obsidian's "shortest path when
 * possible".
 */
export function shortestLinkTarget(resolver: VaultLinkResolver, path: string, fromPath: string): string {
  const segments = withoutMd(path).split('/');
  for (let first = segments.length - 1; first > 0; first--) {
    const target = segments.slice(first).join('/');
    const found = resolver.resolve({ target, subpath: null }, fromPath);
    if (found.status === 'resolved' && found.path === path) return target;
  }
  return segments.join('/');
}

/**
 * How to write a wikilink that names only an alias so that it resolves, as Obsidian's suggester writes
 * it: `[[AI]]` → `[[Artificial Intelligence|AI]]`, subpath and display text kept. Null for other links.
 */
export function aliasFix(
  link: Pick<
    ResolvedLink,
    'source' | 'kind' | 'embed' | 'target' | 'subpath' | 'display' | 'status' | 'viaAlias' | 'candidates'
  >,
  resolver: VaultLinkResolver,
): string | null {
  const owner = link.candidates[0];
  if (link.kind !== 'wikilink' || link.status !== 'broken' || !link.viaAlias || !owner) return null;
  const target = resolver.note(owner) ? shortestLinkTarget(resolver, owner, link.source) : withoutMd(owner);
  const subpath = link.subpath === null ? '' : `#${link.subpath}`;
  const display = link.display ?? (link.embed ? null : link.target.trim());
  return `${link.embed ? '!' : ''}[[${target}${subpath}${display === null ? '' : `|${display}`}]]`;
}
