import { useMemo } from 'react';
import ReactMarkdown from 'react-markdown';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { noteComponents } from './note-markdown-components';
import {
  noteRehypePlugins,
  noteRemarkPlugins,
  noteRemarkRehypeOptions,
  noteUrlTransform,
} from './note-markdown-plugins';
import { useNoteMath } from './note-math';
import { positionKey, RenderedNoteContext, type RenderedNote } from './rendered-note';
import type { OpenNote } from './WikiLink';
import './obsidian.css';

const outermost: string[] = [];

interface MarkdownNoteProps {
  content: string;
  /** Vault-relative path of the note. */
  path: string;
  /** The note's links as the index resolved them, matched to the Markdown by line and column. */
  links: ResolvedLink[];
  onOpen: OpenNote;
  /** The notes embedding this one, outermost first, so embeds stop at cycles. */
  chain?: string[];
}

/**
 * A note rendered as Obsidian's reading view renders it: GFM, frontmatter, wikilinks and embeds parsed by
 * the shared parser, every link resolved by the vault index; callouts, math, highlights, and raw HTML
 * through a sanitizer.
 */
export function MarkdownNote({ content, path, links, onOpen, chain = outermost }: MarkdownNoteProps) {
  const remarkPlugins = useMemo(() => noteRemarkPlugins(content), [content]);
  const math = useNoteMath();
  const rehypePlugins = useMemo(() => noteRehypePlugins(math), [math]);
  const inner = useMemo(() => [...chain, path], [chain, path]);
  const rendered = useMemo(
    (): RenderedNote => ({
      path,
      byPosition: new Map(links.map((link) => [positionKey(link.line, link.column), link])),
      inner,
      onOpen,
    }),
    [path, links, inner, onOpen],
  );
  return (
    <RenderedNoteContext.Provider value={rendered}>
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        remarkRehypeOptions={noteRemarkRehypeOptions}
        urlTransform={noteUrlTransform}
        components={noteComponents}
      >
        {content.replace(/^\uFEFF/, '')}
      </ReactMarkdown>
    </RenderedNoteContext.Provider>
  );
}
