import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import { drawPage, openPdf, pageAspect, pdfSubpath } from './pdf-document';
import { useVaultFile } from './use-vault-file';

function describePdfError(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') return 'it is protected by a password.';
  if (name === 'InvalidPDFException') return 'it is not a valid PDF.';
  return `it could not be read (${error instanceof Error ? error.message : String(error)}).`;
}

interface Opened {
  bytes: Uint8Array;
  document?: PDFDocumentProxy;
  /** Width over height of the first page: the other pages' room until each is drawn. */
  aspect?: number;
  error?: string;
}

/**
 * A PDF of the vault, its pages drawn by pdf.js as they scroll into view, in a pane of its own like
 * Obsidian's embedded PDF (the browser's own viewer needs a frame, which the CSP refuses).
 */
export function PdfEmbed({ path, subpath }: { path: string; subpath: string | null }) {
  const { file, error } = useVaultFile(path);
  const [opened, setOpened] = useState<Opened | null>(null);
  const pane = useRef<HTMLDivElement>(null);
  const name = path.split('/').at(-1) ?? path;
  const { page: firstPage, height } = pdfSubpath(subpath);

  useEffect(() => {
    if (!file) return;
    let cancelled = false;
    let close = () => {};
    const { bytes } = file;
    openPdf(bytes)
      .then(async (task) => {
        close = () => void task.destroy();
        if (cancelled) return close();
        const document = await task.promise;
        const aspect = pageAspect(await document.getPage(1));
        if (!cancelled) setOpened({ bytes, document, aspect });
      })
      .catch((reason: unknown) => !cancelled && setOpened({ bytes, error: describePdfError(reason) }));
    return () => {
      cancelled = true;
      close();
    };
  }, [file]);

  const state = opened && opened.bytes === file?.bytes ? opened : null;
  const document = state?.document;
  useEffect(() => {
    const view = pane.current;
    const start = document && view?.querySelector<HTMLElement>(`[data-page="${firstPage}"]`);
    if (!view || !start) return;
    const padding = Number.parseFloat(getComputedStyle(view).paddingTop) || 0;
    view.scrollTop += start.getBoundingClientRect().top - view.getBoundingClientRect().top - padding;
  }, [document, firstPage]);

  const failure = error ?? state?.error;
  if (failure)
    return (
      <span className="embed-missing">
        {name}: {failure}
      </span>
    );
  return (
    <figure className="pdf-embed" data-testid="pdf-embed" aria-label={`PDF ${name}`}>
      <figcaption className="pdf-embed-bar">
        <span className="pdf-embed-name">{name}</span>
        {document && (
          <span className="muted">
            {document.numPages} {document.numPages === 1 ? 'page' : 'pages'}
          </span>
        )}
      </figcaption>
      <div className="pdf-embed-pages" ref={pane} style={height ? { height } : undefined}>
        {document && state.aspect ? (
          Array.from({ length: document.numPages }, (_, index) => (
            <PdfPage
              key={index}
              document={document}
              number={index + 1}
              aspect={state.aspect!}
              pane={pane}
              name={name}
            />
          ))
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    </figure>
  );
}

/** One page: room kept at the first page's shape, drawn with its text once it comes near the pane's view. */
function PdfPage({
  document,
  number,
  aspect,
  pane,
  name,
}: {
  document: PDFDocumentProxy;
  number: number;
  aspect: number;
  pane: RefObject<HTMLDivElement | null>;
  name: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const [shape, setShape] = useState(aspect);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const [element, picture, words] = [box.current, canvas.current, text.current];
    if (!element || !picture || !words) return;
    let cancelled = false;
    let cancel = () => {};
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void document.getPage(number).then((page) => {
          if (cancelled) return;
          setShape(pageAspect(page));
          const drawing = drawPage(page, picture, words, element.clientWidth);
          cancel = drawing.cancel;
          drawing.done.then(
            () => !cancelled && setDrawn(true),
            () => {
              // Cancelled as the embed went, or a page pdf.js cannot draw: it stays blank.
            },
          );
        });
      },
      { root: pane.current, rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
      cancel();
    };
  }, [document, number, pane]);

  return (
    <div
      ref={box}
      className="pdf-page"
      data-page={number}
      data-drawn={drawn || undefined}
      role="group"
      aria-label={`Page ${number} of ${name}`}
      style={{ aspectRatio: shape }}
    >
      <canvas ref={canvas} aria-hidden />
      <div ref={text} className="pdf-page-text" />
    </div>
  );
}
