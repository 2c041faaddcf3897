import path from 'node:path';
import { defineConfig, type UserConfig } from 'vite';
import appConfig from '../../electron.vite.config';

/**
 * The renderer section of electron.vite.config.ts (same plugins, same CSP meta tag as the app),
 * built into a folder of the e2e tests' own so a run never races `npm run build` over out/renderer.
 */
const renderer = (appConfig as { renderer: UserConfig }).renderer;
const outDir = process.env.DYNOTABLE_E2E_RENDERER_DIR ?? path.resolve(__dirname, '../../.tmp/e2e-renderer');

export default defineConfig({
  // electron-vite builds the renderer with relative asset paths (the app loads it from file://);
  // plain vite would not, so say it here to test the same index.html the app ships.
  base: './',
  ...renderer,
  logLevel: 'warn',
  build: { ...renderer.build, outDir, emptyOutDir: true },
});
