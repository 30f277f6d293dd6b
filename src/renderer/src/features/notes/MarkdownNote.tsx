import { createContext, useContext, useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { remarkPluginsFor } from '../../../../shared/markdown/parse-markdown';
import { EmbeddedImage } from './EmbeddedImage';
import { rehypeSourceLines } from './rehype-source-lines';
import { remarkHideComments } from './remark-hide-comments';
import { WikiEmbed } from './WikiEmbed';
import { WikiLink, type OpenNote } from './WikiLink';

const rehypePlugins = [rehypeSourceLines];
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

type Position = { start: { line: number; column: number } } | undefined;
const key = (line: unknown, column: unknown) => `${String(line)}:${String(column)}`;

/** What the components below need of the note they render; each MarkdownNote provides its own. */
interface RenderedNote {
  byPosition: Map<string, ResolvedLink>;
  /** The embedding chain for embeds inside this note: the chain and this note. */
  inner: string[];
  onOpen: OpenNote;
}

const RenderedNoteContext = createContext<RenderedNote | null>(null);

function useRenderedNote(): RenderedNote {
  const note = useContext(RenderedNoteContext);
  if (!note) throw new Error('Markdown components render inside a MarkdownNote.');
  return note;
}

const linkAt = (note: RenderedNote, line: unknown, column: unknown) => note.byPosition.get(key(line, column));
const unresolved = (children: ReactNode) => <span className="wikilink wikilink-pending">{children}</span>;

/**
 * One set of components for every note, reading the note's links from context: components made anew when
 * the links change are new component types to React, which would remount everything they render (every
 * embed read again, after any change to the index).
 */
const components: Components = {
  a: function Anchor({ node, href, children, className, ...rest }) {
    const note = useRenderedNote();
    if (className === 'wikilink') {
      const link = linkAt(
        note,
        rest['data-line' as keyof typeof rest],
        rest['data-column' as keyof typeof rest],
      );
      return link ? (
        <WikiLink link={link} onOpen={note.onOpen}>
          {children}
        </WikiLink>
      ) : (
        unresolved(children)
      );
    }
    const start = (node?.position as Position)?.start;
    const local = start && linkAt(note, start.line, start.column);
    if (local?.kind === 'markdown')
      return (
        <WikiLink link={local} markdown onOpen={note.onOpen}>
          {children}
        </WikiLink>
      );
    const external = /^(https?:|mailto:)/i.test(href ?? '');
    return (
      <a href={href} {...(external ? { target: '_blank', rel: 'noreferrer noopener' } : {})}>
        {children}
      </a>
    );
  },
  span: function Span({ node: _node, className, children, ...rest }) {
    const note = useRenderedNote();
    if (className !== 'wikilink-embed') return <span className={className}>{children}</span>;
    const link = linkAt(
      note,
      rest['data-line' as keyof typeof rest],
      rest['data-column' as keyof typeof rest],
    );
    return link ? <WikiEmbed link={link} chain={note.inner} onOpen={note.onOpen} /> : unresolved(children);
  },
  img: function Image({ node, src, alt }) {
    const note = useRenderedNote();
    const start = (node?.position as Position)?.start;
    const local = start && linkAt(note, start.line, start.column);
    if (local?.resolved) return <EmbeddedImage path={local.resolved} alt={alt ?? ''} />;
    if (local)
      return (
        <span className="embed-missing" title={local.reason ?? undefined}>
          Image {local.target}: {local.reason}
        </span>
      );
    return <img src={typeof src === 'string' ? src : ''} alt={alt ?? ''} />;
  },
};

/**
 * A note rendered as Obsidian renders it: GFM, frontmatter, wikilinks and embeds parsed by the shared
 * parser, every link resolved by the vault index.
 */
export function MarkdownNote({ content, path, links, onOpen, chain = outermost }: MarkdownNoteProps) {
  const remarkPlugins = useMemo(() => [...remarkPluginsFor(content), remarkHideComments], [content]);
  const inner = useMemo(() => [...chain, path], [chain, path]);
  const rendered = useMemo(
    (): RenderedNote => ({
      byPosition: new Map(links.map((link) => [key(link.line, link.column), link])),
      inner,
      onOpen,
    }),
    [links, inner, onOpen],
  );
  return (
    <RenderedNoteContext.Provider value={rendered}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {content.replace(/^\uFEFF/, '')}
      </ReactMarkdown>
    </RenderedNoteContext.Provider>
  );
}
