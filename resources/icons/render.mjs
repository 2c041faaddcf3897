// Renders icon.svg to the PNGs electron-builder needs (mac/win convert icon.png; Linux takes
// the sized set). Uses Debian's Chromium headless, so no image library is needed:
//   node resources/icons/render.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const svg = readFileSync(path.join(here, 'icon.svg'), 'utf8');
const work = mkdtempSync(path.join(tmpdir(), 'dynotable-icon-'));

function render(size, file) {
  const html = path.join(work, `icon-${size}.html`);
  writeFileSync(
    html,
    `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
  );
  execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${path.join(work, 'profile')}`,
      '--default-background-color=00000000',
      `--window-size=${size},${size}`,
      `--screenshot=${file}`,
      pathToFileURL(html).href,
    ],
    { stdio: 'ignore', timeout: 60_000 },
  );
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

try {
  render(1024, path.join(here, 'icon.png'));
  for (const size of [512, 256, 128, 64, 32, 16]) render(size, path.join(here, `${size}x${size}.png`));
} finally {
  rmSync(work, { recursive: true, force: true });
}
