// KaTeX and its style sheet: a chunk of its own, loaded by note-math.ts when a note first shows math.
import rehypeKatex from 'rehype-katex';
import 'katex/dist/katex.min.css';

export { rehypeKatex };
