import { useMemo } from 'react';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { backlinkContext } from './backlink-context';
import type { OpenNote } from './WikiLink';

const noteName = (path: string) => path.split('/').at(-1)?.replace(/\.md$/i, '') ?? path;

/** Under the note: who links here (with the linking line) and where this note links to. */
export function NoteLinks({
  backlinks,
  outgoing,
  onOpen,
}: {
  backlinks: ResolvedLink[];
  outgoing: ResolvedLink[];
  onOpen: OpenNote;
}) {
  // Per linking note, one entry per distinct context: three links in one short line show it once,
  // each of them marked in it.
  const bySource = new Map<string, ResolvedLink[]>();
  const linksOnLine = new Map<string, string[]>();
  let entries = 0;
  for (const link of backlinks) {
    const line = `${link.source}:${link.line}`;
    linksOnLine.set(line, [...(linksOnLine.get(line) ?? []), link.raw]);
    const links = bySource.get(link.source) ?? [];
    if (links.some((shown) => shown.line === link.line && shown.context === link.context)) continue;
    bySource.set(link.source, [...links, link]);
    entries++;
  }
  return (
    <footer className="note-links" aria-label="Links">
      <section aria-label="Backlinks">
        <h3>
          Backlinks <span className="muted">{entries}</span>
        </h3>
        {backlinks.length === 0 && <p className="muted small">No other note links here yet.</p>}
        {[...bySource].map(([source, links]) => (
          <div key={source} className="backlink-group">
            <div className="backlink-source" title={source}>
              {noteName(source)}
            </div>
            {links.map((link) => (
              <button
                key={`${link.line}:${link.column}`}
                type="button"
                className="backlink"
                data-testid="backlink"
                title={`${source}, line ${link.line}`}
                onClick={() => onOpen(source, link.line)}
              >
                <BacklinkContext context={link.context} raws={linksOnLine.get(`${source}:${link.line}`)} />
              </button>
            ))}
          </div>
        ))}
      </section>
      <section aria-label="Outgoing links">
        <h3>
          Outgoing links <span className="muted">{outgoing.length}</span>
        </h3>
        <ul className="outgoing-links">
          {outgoing.map((link) => (
            <li key={`${link.line}:${link.column}`}>
              <button
                type="button"
                className={`outgoing-link link-status-${link.status}`}
                data-testid="outgoing-link"
                title={link.reason ?? link.resolved ?? ''}
                disabled={!link.resolved || !/\.md$/i.test(link.resolved)}
                onClick={() => link.resolved && onOpen(link.resolved, link.subpathLine, link.subpath)}
              >
                {link.embed ? '↪ ' : ''}
                {link.resolved ? noteName(link.resolved) : link.target}
                {link.subpath && <span className="muted"> › {link.subpath}</span>}
                {link.status !== 'resolved' && (
                  <span className="link-status"> {link.status.replace('-', ' ')}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </footer>
  );
}

/** The linking line as it reads, the links to this note marked. */
function BacklinkContext({ context, raws = [] }: { context: string; raws?: string[] }) {
  const parts = useMemo(() => backlinkContext(context, raws), [context, raws]);
  return parts.map((part, index) =>
    part.link ? (
      <mark key={index} className="backlink-link">
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}
