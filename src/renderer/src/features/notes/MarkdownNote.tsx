import type { ComponentProps, ReactNode } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkWikiLink from 'remark-wiki-link';
import { useVaultStore } from '../vault/vault-store';
import { EmbeddedImage } from './EmbeddedImage';
import { remarkEmbeds } from './remark-embeds';
import { resolveLinkTarget, splitSubpath } from './resolve-link';

const wikilinkPrefix = '#wikilink:';
const embedPrefix = 'kasten-embed:';

const remarkPlugins: NonNullable<ComponentProps<typeof ReactMarkdown>['remarkPlugins']> = [
  remarkGfm,
  [remarkFrontmatter, ['yaml', 'toml']],
  [
    remarkWikiLink,
    {
      aliasDivider: '|',
      pageResolver: (name: string) => [name],
      hrefTemplate: (target: string) => wikilinkPrefix + encodeURIComponent(target),
    },
  ],
  remarkEmbeds,
];

function keepOurUrls(url: string): string {
  return url.startsWith(wikilinkPrefix) || url.startsWith(embedPrefix) ? url : defaultUrlTransform(url);
}

function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
}

interface MarkdownNoteProps {
  content: string;
  /** Vault-relative path of the note, for relative links. */
  path: string;
  onOpenNote: (path: string, subpath: string | null) => void;
}

/** A note rendered as GFM Markdown with working wikilinks and image embeds. */
export function MarkdownNote({ content, path, onOpenNote }: MarkdownNoteProps) {
  const notePaths = useVaultStore((state) => state.notePaths);
  const attachmentPaths = useVaultStore((state) => state.attachmentPaths);

  const wikiLink = (link: string, children: ReactNode, embed = false) => {
    const { target, subpath } = splitSubpath(link);
    const resolved = target === '' ? path : resolveLinkTarget(target, notePaths, path);
    const className = `wikilink${embed ? ' wikilink-embed' : ''}${resolved ? '' : ' wikilink-broken'}`;
    return (
      <a
        href="#"
        className={className}
        data-target={link}
        title={resolved ? resolved : `No note named “${target}” in this vault`}
        onClick={(event) => {
          event.preventDefault();
          if (resolved) onOpenNote(resolved, subpath);
        }}
      >
        {children}
      </a>
    );
  };

  const components: Components = {
    a: ({ href, children, node: _node, ...rest }) => {
      if (href?.startsWith(wikilinkPrefix))
        return wikiLink(decodeURIComponent(href.slice(wikilinkPrefix.length)), children);
      const external = /^(https?:|mailto:)/i.test(href ?? '');
      return (
        <a href={href} {...rest} {...(external ? { target: '_blank', rel: 'noreferrer noopener' } : {})}>
          {children}
        </a>
      );
    },
    img: ({ src, alt, title }) => {
      const source = typeof src === 'string' ? src : '';
      if (source.startsWith(embedPrefix)) {
        const link = decodeURIComponent(source.slice(embedPrefix.length));
        const { target } = splitSubpath(link);
        const attachment = resolveLinkTarget(target, attachmentPaths, path);
        const width = title && /^\d+/.test(title) ? Number.parseInt(title, 10) : undefined;
        if (attachment && /\.(png|jpe?g|gif|webp|avif|bmp|svg)$/i.test(attachment)) {
          return <EmbeddedImage path={attachment} alt={alt ?? target} width={width} />;
        }
        return wikiLink(link, `↪ ${link}`, true);
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(source) || source === '') return <img src={source} alt={alt ?? ''} />;
      const relative = decodeURIComponent(source).replace(/^\.\//, '');
      return <EmbeddedImage path={folderOf(path) + relative} alt={alt ?? ''} />;
    },
  };

  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} components={components} urlTransform={keepOurUrls}>
      {content}
    </ReactMarkdown>
  );
}
