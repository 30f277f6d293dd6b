import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { contentSecurityPolicy } from './src/shared/content-security-policy';

/** The built page carries its CSP in a meta tag (file:// pages get no headers); dev needs inline scripts. */
function cspMetaTag(): Plugin {
  return {
    name: 'kasten-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  main: {
    resolve: {
      // The main process loads the remark parser at its first parse (src/main/markdown-parser.ts).
      alias: [{ find: /^\.\/parse-markdown$/, replacement: resolve('src/main/markdown-parser.ts') }],
    },
    build: {
      externalizeDeps: { exclude: ['zod', 'yaml', 'markdown-it', 'diff'] },
      rolldownOptions: {
        // The CLI and browser host run the same services in plain Node.
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli.ts'),
          // Notes are parsed in worker threads (piscina loads this file in each).
          'index-worker': resolve('src/main/index/index-worker.ts'),
          'attachment-worker': resolve('src/main/attachments/attachment-worker.ts'),
          // Required by src/main/markdown-parser.ts at the first parse.
          'markdown-parser': resolve('src/shared/markdown/parse-markdown.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require anything but `electron`: bundle zod in, emit CommonJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    build: {
      // Minified: 0.49 MB instead of 1.37 MB of JavaScript to load in the browser host.
      minify: true,
      // Fonts as `data:` URLs would be refused (`font-src 'self'`): KaTeX's smallest ones were inlined.
      assetsInlineLimit: 0,
    },
    resolve: {
      alias: {
        // rehype-katex parses KaTeX's markup with the DOM in a browser, and the CSP reports every style
        // attribute that parse meets; the parse5 build yields the same tree without a DOM (parse5 is in
        // the bundle already, for raw HTML), and React then sets those styles through the CSSOM.
        'hast-util-from-html-isomorphic': resolve('node_modules/hast-util-from-html-isomorphic/index.js'),
      },
    },
    plugins: [react(), cspMetaTag()],
  },
});
