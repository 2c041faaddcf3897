import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Builds the grid benchmark page (production mode, as the app ships) into .tmp/items-grid-bench. */
export default defineConfig({
  root: __dirname,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: path.resolve(__dirname, '../../../.tmp/items-grid-bench'), emptyOutDir: true },
});
