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
    build: {
      rolldownOptions: {
        // The CLI and browser host run the same services in plain Node.
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli.ts'),
          // Notes are parsed in worker threads (piscina loads this file in each).
          'index-worker': resolve('src/main/index/index-worker.ts'),
          'attachment-worker': resolve('src/main/attachments/attachment-worker.ts'),
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
    // Minified: 0.49 MB instead of 1.37 MB of JavaScript to load in the browser host.
    build: { minify: true },
    plugins: [react(), cspMetaTag()],
  },
});
