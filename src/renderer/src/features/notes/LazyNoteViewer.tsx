import { lazy, Suspense } from 'react';

const NoteViewerLoaded = lazy(() =>
  import('./NoteViewer').then(({ NoteViewer }) => ({ default: NoteViewer })),
);

/**
 * The note viewer, with its Markdown, math and code rendering and its properties (about half the
 * renderer's code), loaded when a note is first opened: the vault's notes show without it.
 */
export function NoteViewer() {
  return (
    <Suspense fallback={<div className="note-viewer note-loading" aria-busy="true" />}>
      <NoteViewerLoaded />
    </Suspense>
  );
}
