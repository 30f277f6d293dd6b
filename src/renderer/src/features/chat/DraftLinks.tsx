import { useEffect, useMemo, useState } from 'react';
import type { LinkResolution } from '../../../../shared/links/link-resolver';
import { kasten } from '../../api';
import { useIndexStore } from '../status/index-store';
import { linksIn } from './link-completion';

/** The wikilinks typed in the draft, each shown resolved, or broken ("no such note") before sending. */
export function DraftLinks({ text }: { text: string }) {
  const indexEpoch = useIndexStore((state) => state.epoch);
  const [resolved, setResolved] = useState<{ raw: string; resolution: LinkResolution }[]>([]);
  const linksKey = useMemo(() => JSON.stringify(linksIn(text)), [text]);

  useEffect(() => {
    const links = JSON.parse(linksKey) as ReturnType<typeof linksIn>;
    if (links.length === 0) return;
    const timer = setTimeout(() => {
      kasten.links.resolve({ links: links.map(({ target, subpath }) => ({ target, subpath })) }).then(
        (found) => setResolved(links.map((link, index) => ({ raw: link.raw, resolution: found[index]! }))),
        () => setResolved([]),
      );
    }, 150);
    return () => clearTimeout(timer);
  }, [linksKey, indexEpoch]);

  const shown = linksKey === '[]' ? [] : resolved;
  if (shown.length === 0) return null;
  return (
    <div className="draft-links" data-testid="draft-links">
      {shown.map(({ raw, resolution }) => (
        <span
          key={raw}
          className={`draft-link draft-link-${resolution.status}`}
          title={resolution.reason ?? resolution.path ?? ''}
        >
          {resolution.status === 'broken' ? `${raw} — no such note` : raw}
        </span>
      ))}
    </div>
  );
}
