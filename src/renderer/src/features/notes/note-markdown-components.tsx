import type { MouseEvent, ReactNode } from 'react';
import type { Components } from 'react-markdown';
import { EmbeddedImage } from './EmbeddedImage';
import { FileEmbed } from './FileEmbed';
import { MermaidBlock } from './MermaidBlock';
import { linkAt, useRenderedNote } from './rendered-note';
import { TagLink } from './TagLink';
import { vaultPath } from './vault-path';
import { WikiEmbed } from './WikiEmbed';
import { WikiLink } from './WikiLink';

type Position = { start: { line: number; column: number } } | undefined;

const unresolved = (children: ReactNode) => <span className="wikilink wikilink-pending">{children}</span>;

/**
 * `#fn-1` and the like (footnotes and their back-references): scrolls to the element within the same
 * note, whose id the sanitizer prefixed. The page's own location is left alone, and a note embedded twice
 * finds its own footnote rather than the first one on the page.
 */
function scrollWithinNote(event: MouseEvent<HTMLAnchorElement>, hash: string): void {
  event.preventDefault();
  const embed = event.currentTarget.closest('.note-embed');
  const root = embed ?? event.currentTarget.closest('.markdown') ?? document;
  let name = hash;
  try {
    name = decodeURIComponent(hash);
  } catch {
    // A malformed escape (`#%zz`) is looked for as written.
  }
  const id = `#${CSS.escape(`user-content-${name}`)}`;
  const target = [...root.querySelectorAll<HTMLElement>(id)].find(
    (element) => element.closest('.note-embed') === embed,
  );
  target?.scrollIntoView({ block: 'center' });
}

/**
 * One set of components for every note, reading the note's links from context: components made anew when
 * the links change are new component types to React, which would remount everything they render (every
 * embed read again, after any change to the index).
 */
export const noteComponents: Components = {
  a: function Anchor({ node, href, children, className, ...rest }) {
    const note = useRenderedNote();
    if (className === 'tag') return <TagLink tag={String(rest['data-tag' as keyof typeof rest] ?? '')} />;
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
    if (href?.startsWith('#'))
      return (
        <a
          {...rest}
          className={className}
          href={href}
          onClick={(event) => scrollWithinNote(event, href.slice(1))}
        >
          {children}
        </a>
      );
    if (/^(https?:|mailto:)/i.test(href ?? ''))
      return (
        <a href={href} target="_blank" rel="noreferrer noopener">
          {children}
        </a>
      );
    // A relative link in the note's HTML, which the index does not read: a note opens; nothing else
    // takes the page away from the app.
    const path = href ? vaultPath(href, note.path) : null;
    const open = (event: MouseEvent) => {
      event.preventDefault();
      if (path && /\.md$/i.test(path)) note.onOpen(path, null);
    };
    return (
      <a href={href} title={path ?? undefined} onClick={open}>
        {children}
      </a>
    );
  },
  span: function Span({ node: _node, className, children, ...rest }) {
    const note = useRenderedNote();
    // KaTeX lays formulas out with the spans' inline styles: they pass through.
    if (className !== 'wikilink-embed')
      return (
        <span className={className} {...rest}>
          {children}
        </span>
      );
    const link = linkAt(
      note,
      rest['data-line' as keyof typeof rest],
      rest['data-column' as keyof typeof rest],
    );
    return link ? <WikiEmbed link={link} chain={note.inner} onOpen={note.onOpen} /> : unresolved(children);
  },
  img: function Image({ node, src, alt, width, height }) {
    const note = useRenderedNote();
    const start = (node?.position as Position)?.start;
    const local = start && linkAt(note, start.line, start.column);
    // `![](song.mp3)` embeds as `![[song.mp3]]` does.
    if (local?.resolved) return <FileEmbed path={local.resolved} subpath={local.subpath} alt={alt ?? ''} />;
    if (local)
      return (
        <span className="embed-missing" title={local.reason ?? undefined}>
          Image {local.target}: {local.reason}
        </span>
      );
    const url = typeof src === 'string' ? src : '';
    if (/^data:image\//i.test(url)) return <img src={url} alt={alt ?? ''} width={width} height={height} />;
    // An HTML <img> the index does not read: a path in the vault, fetched like any attachment.
    const path = url && vaultPath(url, note.path);
    const size = { width: Number(width) || undefined, height: Number(height) || undefined };
    if (path) return <EmbeddedImage path={path} alt={alt ?? ''} {...size} />;
    return (
      <span className="embed-missing" title="Images load only from the vault, never from the network.">
        Image not loaded{alt ? `: ${alt}` : ''}
      </span>
    );
  },
  pre: function Pre({ node, children, ...rest }) {
    const code = node?.children[0];
    const classes = code?.type === 'element' ? code.properties.className : undefined;
    if (code?.type === 'element' && Array.isArray(classes) && classes.includes('language-mermaid')) {
      const source = code.children.map((child) => (child.type === 'text' ? child.value : '')).join('');
      return <MermaidBlock source={source}>{children}</MermaidBlock>;
    }
    return <pre {...rest}>{children}</pre>;
  },
};
