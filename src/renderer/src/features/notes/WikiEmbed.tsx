import { ArrowUpRight } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import type { NoteFile } from '../../../../shared/domain';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { describeError, kasten } from '../../api';
import { FileEmbed } from './FileEmbed';
import { MarkdownNote } from './MarkdownNote';
import { subpathMatch } from './subpath-line';
import { embeddedSection } from '../../../../shared/markdown/note-section';
import type { OpenNote } from './WikiLink';
import { useIndexStore } from '../status/index-store';
import './embeds.css';

/** How deep note embeds nest before the viewer stops, as Obsidian does. */
const maxDepth = 4;

/** `![[…]]`: a note (or its section) rendered inline, another file as FileEmbed shows it. */
export function WikiEmbed({
  link,
  chain,
  onOpen,
}: {
  link: ResolvedLink;
  chain: string[];
  onOpen: OpenNote;
}) {
  const path = link.resolved;
  if (!path || link.status === 'broken-subpath')
    return (
      <span className="embed-missing wikilink-broken" title={link.reason ?? undefined}>
        ↪ {link.raw} — {link.reason}
      </span>
    );
  if (!/\.md$/i.test(path))
    return (
      <FileEmbed
        path={path}
        display={link.display}
        subpath={link.subpath}
        alt={link.display ?? link.target}
      />
    );
  if (chain.includes(path))
    return (
      <p className="embed-notice">↻ {link.raw} is already shown above: embedding it again would never end.</p>
    );
  if (chain.length >= maxDepth)
    return (
      <p className="embed-notice">
        {link.raw} is nested {maxDepth} embeds deep; open it to read it.
      </p>
    );
  return <NoteEmbed link={link} path={path} chain={chain} onOpen={onOpen} />;
}

interface EmbedRead {
  path: string;
  note?: NoteFile;
  error?: string;
}

function NoteEmbed({
  link,
  path,
  chain,
  onOpen,
}: {
  link: ResolvedLink;
  path: string;
  chain: string[];
  onOpen: OpenNote;
}) {
  const [read, setRead] = useState<EmbedRead | null>(null);
  // Read again after every change to the index: the note, or what its links lead to, may have changed.
  // What was shown of this note stays until the new version arrives.
  const indexEpoch = useIndexStore((index) => index.epoch);
  useEffect(() => {
    let cancelled = false;
    kasten.notes.read({ path }).then(
      (note) => !cancelled && setRead({ path, note }),
      (error: unknown) => !cancelled && setRead({ path, error: describeError(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [path, indexEpoch]);

  const state: Partial<EmbedRead> = read?.path === path ? read : {};
  // A section the index has not located (it has not read the note yet) is looked for in the text.
  const note = state.note;
  const section = useMemo(() => {
    if (!note || link.subpathLine !== null || !link.subpath) return { line: link.subpathLine, reason: null };
    return subpathMatch(note, link.subpath);
  }, [note, link.subpath, link.subpathLine]);
  return (
    <div className="note-embed" data-testid="note-embed" data-path={path} data-subpath={link.subpath ?? ''}>
      {/* Like Obsidian's, the embed shows its content without naming it; this opens what it shows. */}
      <button
        type="button"
        className="note-embed-open icon-button"
        aria-label={`Open ${link.raw.slice(3, -2)}`}
        title={`Open ${link.raw.slice(3, -2)}`}
        onClick={() => onOpen(path, link.subpathLine, link.subpath)}
      >
        <ArrowUpRight size={14} aria-hidden />
      </button>
      {state.error ? (
        <p className="error">{state.error}</p>
      ) : section.reason ? (
        <p className="embed-missing wikilink-broken">{section.reason}</p>
      ) : note ? (
        <MarkdownNote
          content={embeddedSection(note.content, section.line)}
          path={path}
          links={note.links}
          chain={chain}
          onOpen={onOpen}
        />
      ) : (
        <p className="muted">Loading…</p>
      )}
    </div>
  );
}
