import { useState, type ReactNode } from 'react';
import type { ResolvedLink } from '../../../../shared/index-domain';

/** Opens a note at a source line, or at the heading or `^block` a subpath names (see note-store). */
export type OpenNote = (path: string, line: number | null, subpath?: string | null) => void;

const isNote = (path: string) => /\.md$/i.test(path);

function describe(link: ResolvedLink): string {
  if (link.reason) return link.fix ? `${link.reason} Write ${link.fix}.` : link.reason;
  const where = link.resolved ?? '';
  return link.viaAlias ? `${where} (by its alias “${link.target}”)` : where;
}

/**
 * A wikilink or local Markdown link as the index resolved it: opens its note at the heading or block;
 * broken links say why on hover; ambiguous ones offer every candidate.
 */
export function WikiLink({
  link,
  markdown = false,
  onOpen,
  children,
}: {
  link: ResolvedLink;
  markdown?: boolean;
  onOpen: OpenNote;
  children: ReactNode;
}) {
  const [choosing, setChoosing] = useState(false);
  const className = [markdown ? 'internal-link' : 'wikilink', `wikilink-${link.status}`].join(' ');
  const open = (path: string, line: number | null) => {
    setChoosing(false);
    if (isNote(path)) onOpen(path, line, link.subpath);
  };

  return (
    <span className="wikilink-wrap">
      <a
        href="#"
        className={className}
        title={describe(link)}
        data-status={link.status}
        onClick={(event) => {
          event.preventDefault();
          if (link.status === 'ambiguous') setChoosing(!choosing);
          else if (link.resolved) open(link.resolved, link.subpathLine);
        }}
      >
        {children}
      </a>
      {choosing && (
        <span className="link-candidates" role="menu" aria-label={`Notes named “${link.target}”`}>
          <span className="link-candidates-title">{link.candidates.length} candidates</span>
          {link.candidates.map((candidate, index) => (
            <button
              key={candidate}
              type="button"
              role="menuitem"
              onClick={() => open(candidate, null)}
              onKeyDown={(event) => event.key === 'Escape' && setChoosing(false)}
            >
              {candidate}
              {index === 0 && <span className="muted"> — chosen</span>}
            </button>
          ))}
        </span>
      )}
    </span>
  );
}
