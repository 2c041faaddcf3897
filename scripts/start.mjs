// `npm start`: install if needed, build if stale, then open DynoTable on the local playground —
// the desktop window where Electron can run, browser mode where it cannot.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkNodeVersion, electronBinary, ensureDependencies, root, say } from './ensure-deps.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The Electron download is tried once per install; a marker in node_modules remembers it. */
const downloadMarker = path.join(root, 'node_modules', '.cache', 'dynotable', 'electron-download-tried');
const downloadTimeoutMs = 120_000;

function tryElectronDownload() {
  if (electronBinary() || existsSync(downloadMarker)) return;
  // Someone who set this on purpose does not want the download; respect it.
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return;
  say('downloading the Electron binary (once; it comes from GitHub and may be unreachable here)…');
  mkdirSync(path.dirname(downloadMarker), { recursive: true });
  writeFileSync(downloadMarker, `${new Date().toISOString()}\n`);
  spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    stdio: 'ignore',
    timeout: downloadTimeoutMs,
  });
}

function newestMtime(target, depth = 0) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  if (depth > 12) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry), depth + 1));
  return newest;
}

function isBuildStale() {
  const outputs = [
    'out/main/index.js',
    'out/preload/index.js',
    'out/renderer/index.html',
    'out/cli/index.js',
  ].map((file) => path.join(root, file));
  if (!outputs.every((file) => existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const inputs = [
    'src',
    'package.json',
    'electron.vite.config.ts',
    'scripts/build-cli.mjs',
    'resources/playground',
  ];
  return Math.max(...inputs.map((input) => newestMtime(path.join(root, input)))) > built;
}

function build() {
  say('building DynoTable (npm run build)…');
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say('the build failed (see above).');
    process.exit(result.status ?? 1);
  }
}

/** Why the desktop window cannot open here, or undefined when it can. */
function desktopUnavailableReason() {
  if (!electronBinary()) {
    return 'the Electron binary is not installed (its download from GitHub failed or was skipped)';
  }
  if (process.platform === 'linux') {
    if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
      return 'there is no display (DISPLAY is not set)';
    // Chromium refuses to run as root unless its sandbox is turned off, and we do not do that.
    if (process.getuid?.() === 0) return "Electron will not run as root without disabling Chromium's sandbox";
  }
  return undefined;
}

function run(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

checkNodeVersion();
ensureDependencies();
tryElectronDownload();
if (isBuildStale()) build();

const reason = desktopUnavailableReason();
if (reason === undefined) {
  // ELECTRON_RUN_AS_NODE in the environment would turn Electron into plain Node.
  const { ELECTRON_RUN_AS_NODE: _ignored, ...env } = process.env;
  run(electronBinary(), ['.'], env);
} else {
  say(`opening DynoTable in browser mode because ${reason}.`);
  run(process.execPath, [path.join(root, 'bin', 'dynotable.cjs'), 'serve', '--playground']);
}
