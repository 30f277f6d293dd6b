import { useMemo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import { CitationStream, parseCitations, type AnswerPart } from '../../../../shared/chat/citations';
import { remarkPluginsFor } from '../../../../shared/markdown/parse-markdown';
import { openReference, openWikiLink } from '../references/open-reference';

/** A note the session numbered, as a citation chip needs it. */
export interface CitedDocument {
  path: string;
  title: string;
  subpath: string | null;
  summary: string;
  /** A passage of the note the user asked about under this number: the citation opens the note there. */
  passage?: string;
}

const rehypePlugins = [rehypeHighlight];
const citePrefix = '#kasten-cite-';

/** Answer text with citation markers turned into links the renderer makes chips of. */
function withCitationLinks(parts: AnswerPart[]): string {
  return parts
    .map((part) =>
      part.type === 'text'
        ? part.text
        : `[${part.numbers.join(', ')}](${citePrefix}${part.numbers.join('-')})`,
    )
    .join('');
}

/**
 * A model's answer as Markdown (GFM, highlighted code, wikilinks) with `[N]` citations as chips that open
 * the cited note. While the answer streams, a half-typed marker at its end is held back, never shown.
 */
export function AnswerMarkdown({
  text,
  streaming,
  documents,
}: {
  text: string;
  streaming: boolean;
  documents: Map<number, CitedDocument>;
}) {
  const markdown = useMemo(() => {
    const isKnown = (number: number) => documents.has(number);
    const parts = streaming ? new CitationStream(isKnown).push(text) : parseCitations(text, isKnown);
    return withCitationLinks(parts);
  }, [text, streaming, documents]);
  const remarkPlugins = useMemo(() => remarkPluginsFor(markdown), [markdown]);
  const components = useMemo(
    (): Components => ({
      a: ({ node: _node, href, children, className, ...rest }) => {
        if (href?.startsWith(citePrefix)) {
          const numbers = href.slice(citePrefix.length).split('-').map(Number);
          return (
            <span className="citation">
              {numbers.map((number) => {
                const document = documents.get(number);
                return (
                  <button
                    key={number}
                    type="button"
                    className="citation-chip"
                    data-testid="citation-chip"
                    title={
                      document ? `${document.title}${document.summary ? ` — ${document.summary}` : ''}` : ''
                    }
                    onClick={() =>
                      document &&
                      void openReference(document.path, document.subpath, document.passage ?? null)
                    }
                  >
                    {number}
                  </button>
                );
              })}
            </span>
          );
        }
        if (className === 'wikilink') {
          const target = String(rest['data-target' as keyof typeof rest] ?? '');
          const subpath = String(rest['data-subpath' as keyof typeof rest] ?? '') || null;
          return (
            <a
              href="#"
              className="wikilink"
              onClick={(event) => {
                event.preventDefault();
                void openWikiLink(target, subpath);
              }}
            >
              {children}
            </a>
          );
        }
        const external = /^(https?:|mailto:)/i.test(href ?? '');
        return (
          <a href={href} {...(external ? { target: '_blank', rel: 'noreferrer noopener' } : {})}>
            {children}
          </a>
        );
      },
    }),
    [documents],
  );
  return (
    <div className="markdown answer">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {markdown}
      </ReactMarkdown>
    </div>
  );
}
