import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
export const e2eRendererDir = path.join(root, '.tmp', 'e2e-renderer');
/**
 * The benchmarks' own build, so an e2e run and a bench never rebuild each other's folder; beside
 * the bench's CLI bundle (`bench-app/cli`), where `dynotable serve` looks for it (`../renderer`).
 */
export const benchRendererDir = path.join(root, '.tmp', 'bench-app', 'renderer');

function newestMtime(target: string): number {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isFresh(dir: string): boolean {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return false;
  const sources = [
    'src/renderer',
    'src/shared',
    'electron.vite.config.ts',
    'tests/e2e/vite.renderer.config.ts',
    'tests/e2e/support/build-renderer.ts',
  ];
  return statSync(index).mtimeMs > Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
}

/** Builds the renderer into `dir` unless the build there is newer than every source it came from. */
export function buildRendererIfNeeded(dir = e2eRendererDir): string {
  if (isFresh(dir)) return dir;
  // A child process: vite loads its config with its own bundler, free of the test runner's loaders.
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'tests/e2e/vite.renderer.config.ts',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        // vitest sets NODE_ENV=test, and vite keeps a NODE_ENV it finds: the bundle was React's
        // development build under StrictMode, not what the app ships (and every page load waited
        // 5 s for an event stream its first, discarded mount had opened). Build the shipped form.
        NODE_ENV: 'production',
        DYNOTABLE_E2E_RENDERER_DIR: dir,
        VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
      },
    },
  );
  return dir;
}
