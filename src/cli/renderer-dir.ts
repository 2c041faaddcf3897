import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The built renderer: next to the bundle (out/cli → out/renderer) or, when run from source with
 * tsx (src/cli), in the project's out/renderer. The first folder holding index.html wins; without
 * one the server still answers the API and says how to build the UI.
 */
export function findRendererDir(here: string = __dirname): string {
  const bundled = path.resolve(here, '../renderer');
  const fromSource = path.resolve(here, '../../out/renderer');
  return [bundled, fromSource].find((dir) => existsSync(path.join(dir, 'index.html'))) ?? fromSource;
}
