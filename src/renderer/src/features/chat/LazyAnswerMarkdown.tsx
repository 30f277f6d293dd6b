import { lazy, Suspense, type ComponentProps } from 'react';
import type { AnswerMarkdown as Loaded } from './AnswerMarkdown';

const AnswerMarkdownLoaded = lazy(() =>
  import('./AnswerMarkdown').then(({ AnswerMarkdown }) => ({ default: AnswerMarkdown })),
);

/**
 * An answer rendered as Markdown, its renderer (remark, rehype, highlight.js: shared with the note
 * viewer) loaded when the first answer is shown; until then the answer's text shows as it is.
 */
export function AnswerMarkdown(props: ComponentProps<typeof Loaded>) {
  return (
    <Suspense fallback={<div className="markdown answer answer-loading">{props.text}</div>}>
      <AnswerMarkdownLoaded {...props} />
    </Suspense>
  );
}
