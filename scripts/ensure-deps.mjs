// Shared by `npm start` and `npm test`: make a fresh clone runnable without surprises.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Say one thing, to stderr, so stdout stays for the command's own output. */
export function say(line) {
  process.stderr.write(`dynotable: ${line}\n`);
}

/** Refuse early and clearly on a Node that electron-vite and the CLI cannot run on. */
export function checkNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    say(
      `DynoTable needs Node.js 20.19 or newer; this is ${process.versions.node}. Install a current Node LTS.`,
    );
    process.exit(1);
  }
}

/**
 * Installs dependencies when node_modules is missing. ELECTRON_SKIP_BINARY_DOWNLOAD=1 because
 * Electron's postinstall downloads its binary from GitHub, which many machines cannot reach; the
 * install must not fail for that (start.mjs tries the download separately, once).
 */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker)) {
    const lock = path.join(root, 'package-lock.json');
    if (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000) {
      say('package-lock.json changed since the last install; run `npm ci` if something is missing.');
    }
    return;
  }
  say(
    'installing dependencies (npm ci), skipping the Electron binary download so this works offline from GitHub…',
  );
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (result.status !== 0) {
    say('`npm ci` failed (see above). Check that this machine can reach the npm registry, then try again.');
    process.exit(result.status ?? 1);
  }
}

/** The Electron executable when its binary is installed, otherwise undefined. */
export function electronBinary() {
  const dir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const executable = path.join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : undefined;
}
