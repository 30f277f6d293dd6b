import { useEffect, useMemo, useState } from 'react';
import { lastSegment, withoutMd } from '../../../../shared/links/link-keys';
import type { LinkResolution } from '../../../../shared/links/link-resolver';
import { kasten } from '../../api';
import { useIndexStore } from '../status/index-store';
import { linksIn } from './link-completion';

interface DraftLink {
  raw: string;
  subpath: string | null;
  resolution: LinkResolution;
}

/**
 * The wikilinks typed in the draft, as they will resolve on sending: broken ("no such note", "no such
 * heading"), reached by an alias, or one of several notes of that name (then where it goes).
 */
export function DraftLinks({ text }: { text: string }) {
  const indexEpoch = useIndexStore((state) => state.epoch);
  const [resolved, setResolved] = useState<DraftLink[]>([]);
  const linksKey = useMemo(() => JSON.stringify(linksIn(text)), [text]);

  useEffect(() => {
    const links = JSON.parse(linksKey) as ReturnType<typeof linksIn>;
    if (links.length === 0) return;
    const timer = setTimeout(() => {
      kasten.links.resolve({ links: links.map(({ target, subpath }) => ({ target, subpath })) }).then(
        (found) =>
          setResolved(links.map(({ raw, subpath }, index) => ({ raw, subpath, resolution: found[index]! }))),
        () => setResolved([]),
      );
    }, 150);
    return () => clearTimeout(timer);
  }, [linksKey, indexEpoch]);

  const shown = linksKey === '[]' ? [] : resolved;
  if (shown.length === 0) return null;
  return (
    <div className="draft-links" data-testid="draft-links">
      {shown.map((link, index) => (
        <span
          key={`${index}:${link.raw}`}
          className={`draft-link draft-link-${link.resolution.status}`}
          title={link.resolution.reason ?? link.resolution.path ?? ''}
          data-testid="draft-link"
        >
          {`${link.raw}${marked(link)}`}
        </span>
      ))}
    </div>
  );
}

/** What a link in the draft is marked with: where it does not go, or where it goes when that is not plain. */
function marked({ subpath, resolution }: DraftLink): string {
  const { status, path } = resolution;
  if (status === 'broken') return ' — no such note';
  if (status === 'broken-subpath')
    return subpath?.startsWith('^') ? ' — no such block' : ' — no such heading';
  if (path === null) return '';
  if (resolution.viaAlias) return ` → ${withoutMd(lastSegment(path))} (by its alias)`;
  return status === 'ambiguous' ? ` → ${path}` : '';
}
