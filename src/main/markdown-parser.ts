import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Reference from '../shared/markdown/parse-markdown';

// The reference Markdown parser (remark, micromark and their GFM and frontmatter extensions: half a
// megabyte of code) for the built main process, loaded at its first use rather than at start: the index
// parses notes with its own extractor, and only a linked note in a message, an append under a heading and
// a semantic hit's snippet parse with remark. The main build (electron.vite.config.ts) resolves
// `./parse-markdown` here and builds the parser into `markdown-parser.js` beside the entry points; the
// parse is synchronous, so the module is loaded with `require` (Node loads an ES module so since 22.12).

let parser: typeof Reference | undefined;

function loaded(): typeof Reference {
  if (parser) return parser;
  const here = dirname(fileURLToPath(import.meta.url));
  // This code is built into an entry point (out/main) or a chunk beside them (out/main/chunks).
  const main = basename(here) === 'chunks' ? dirname(here) : here;
  parser = createRequire(import.meta.url)(join(main, 'markdown-parser.js')) as typeof Reference;
  return parser;
}

export const parseMarkdown: typeof Reference.parseMarkdown = (source) => loaded().parseMarkdown(source);
