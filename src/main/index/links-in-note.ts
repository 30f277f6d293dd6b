import { basename } from 'node:path';
import type { ResolvedLink } from '../../shared/index-domain';
import type { VaultLinkResolver } from '../../shared/links/link-resolver';
import { aliasFix } from '../../shared/links/link-text';
import { linkContexts, linkOccurrences } from '../../shared/markdown/note-links';
import { fastExtractNote } from './fast-extract';

/** Extracts and resolves the links of one note's current text, for the viewer. */
export function linksInNote(path: string, content: string, resolver: VaultLinkResolver): ResolvedLink[] {
  const links = linkOccurrences(fastExtractNote(content, basename(path)));
  const contexts = linkContexts(content, links);
  return links.map((link, index) => {
    const resolution = resolver.resolve(link, path);
    const resolved: ResolvedLink = {
      ...link,
      source: path,
      resolved: resolution.path,
      status: resolution.status,
      candidates: resolution.candidates,
      viaAlias: resolution.viaAlias,
      subpathLine: resolution.subpathLine,
      reason: resolution.reason,
      context: contexts[index] ?? '',
    };
    const fix = aliasFix(resolved, resolver);
    return fix === null ? resolved : { ...resolved, fix };
  });
}
