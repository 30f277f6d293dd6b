import type { PDFDocumentLoadingTask, PDFPageProxy } from 'unpdf/pdfjs';

type PdfJs = typeof import('unpdf/pdfjs');

let pdfjs: Promise<PdfJs> | null = null;

/**
 * pdf.js as unpdf builds it (the attachments' reader uses the same), loaded on the first PDF shown. That
 * build reads documents in the page's own thread: the CSP allows no worker script.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('unpdf/pdfjs');
  return pdfjs;
}

/**
 * Opens a PDF from its bytes, as hostile input: no WebAssembly (the CSP refuses to compile it, and
 * reports each try; images in formats only a WebAssembly decoder reads are left out), no forms (XFA),
 * nothing fetched (fonts a PDF does not embed come from the system), no image over 50 megapixels.
 */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentLoadingTask> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  return getDocument({
    // pdf.js may take the buffer over: the caller's copy stays whole.
    data: bytes.slice(),
    enableXfa: false,
    useWasm: false,
    useWorkerFetch: false,
    useSystemFonts: true,
    maxImageSize: 50_000_000,
    verbosity: VerbosityLevel.ERRORS,
  });
}

/** Obsidian's `![[file.pdf#page=3]]` and `#height=400` (or both, `#page=3&height=400`). */
export function pdfSubpath(subpath: string | null): { page: number; height: number | null } {
  const options = new URLSearchParams(subpath ?? '');
  const page = Number.parseInt(options.get('page') ?? '', 10);
  const height = Number.parseInt(options.get('height') ?? '', 10);
  return { page: page > 0 ? page : 1, height: height > 0 ? height : null };
}

/** How wide a page is at scale 1, over how tall. */
export function pageAspect(page: PDFPageProxy): number {
  const { width, height } = page.getViewport({ scale: 1 });
  return width / height;
}

/** A page drawn: cancel it when its embed goes. */
export interface DrawnPage {
  /** Settles once the page and its text are in place; rejects if either could not be drawn. */
  done: Promise<void>;
  cancel(): void;
}

/**
 * Draws `page` into `canvas`, `cssWidth` pixels wide on screen and sharp at the screen's pixel ratio,
 * then lays its text over it in `text` (pdf.js's text layer: invisible, but selectable and read aloud).
 */
export function drawPage(
  page: PDFPageProxy,
  canvas: HTMLCanvasElement,
  text: HTMLElement,
  cssWidth: number,
): DrawnPage {
  const scale = cssWidth / page.getViewport({ scale: 1 }).width;
  const ratio = window.devicePixelRatio || 1;
  const pixels = page.getViewport({ scale: scale * ratio });
  canvas.width = Math.floor(pixels.width);
  canvas.height = Math.floor(pixels.height);
  const drawing = page.render({ canvas, viewport: pixels });
  let layer: { cancel(): void } | null = null;
  let cancelled = false;
  const done = drawing.promise.then(async () => {
    const { TextLayer } = await loadPdfJs();
    if (cancelled) return;
    const viewport = page.getViewport({ scale });
    text.style.setProperty('--total-scale-factor', String(scale));
    text.replaceChildren();
    const textLayer = new TextLayer({
      textContentSource: page.streamTextContent(),
      container: text,
      viewport,
    });
    layer = textLayer;
    await textLayer.render();
  });
  return {
    done,
    cancel() {
      cancelled = true;
      drawing.cancel();
      layer?.cancel();
    },
  };
}
