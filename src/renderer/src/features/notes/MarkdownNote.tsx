import { useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import type { ResolvedLink } from '../../../../shared/index-domain';
import { remarkPluginsFor } from '../../../../shared/markdown/parse-markdown';
import { EmbeddedImage } from './EmbeddedImage';
import { rehypeSourceLines } from './rehype-source-lines';
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

/**
 * A note rendered as Obsidian renders it: GFM, frontmatter, wikilinks and embeds parsed by the shared
 * parser, every link resolved by the vault index.
 */
export function MarkdownNote({ content, path, links, onOpen, chain = outermost }: MarkdownNoteProps) {
  const remarkPlugins = useMemo(() => remarkPluginsFor(content), [content]);
  const components = useMemo((): Components => {
    const byPosition = new Map(links.map((link) => [key(link.line, link.column), link]));
    const at = (position: Position) =>
      position && byPosition.get(key(position.start.line, position.start.column));
    const inner = [...chain, path];
    const unresolved = (children: ReactNode) => <span className="wikilink wikilink-pending">{children}</span>;

    return {
      a: ({ node, href, children, className, ...rest }) => {
        if (className === 'wikilink') {
          const link = byPosition.get(
            key(rest['data-line' as keyof typeof rest], rest['data-column' as keyof typeof rest]),
          );
          return link ? (
            <WikiLink link={link} onOpen={onOpen}>
              {children}
            </WikiLink>
          ) : (
            unresolved(children)
          );
        }
        const local = at(node?.position);
        if (local?.kind === 'markdown')
          return (
            <WikiLink link={local} markdown onOpen={onOpen}>
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
      span: ({ node: _node, className, children, ...rest }) => {
        if (className !== 'wikilink-embed') return <span className={className}>{children}</span>;
        const link = byPosition.get(
          key(rest['data-line' as keyof typeof rest], rest['data-column' as keyof typeof rest]),
        );
        return link ? <WikiEmbed link={link} chain={inner} onOpen={onOpen} /> : unresolved(children);
      },
      img: ({ node, src, alt }) => {
        const local = at(node?.position);
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
  }, [links, chain, path, onOpen]);

  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
      {content.replace(/^\uFEFF/, '')}
    </ReactMarkdown>
  );
}
