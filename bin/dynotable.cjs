#!/usr/bin/env node
'use strict';
// The npm bin. From a fresh clone nothing is built yet, so the first run builds once; stdout
// stays reserved for the command's own output (scripts read the printed address from it).
const { existsSync } = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'out', 'cli', 'index.js');
const renderer = path.join(root, 'out', 'renderer', 'index.html');

if (!existsSync(cli) || !existsSync(renderer)) {
  process.stderr.write('DynoTable is not built yet: running `npm run build` first (only this once)…\n');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0 || !existsSync(cli)) {
    process.stderr.write(
      'dynotable: the build failed (see above). Fix it, or run `npm run build` yourself.\n',
    );
    process.exit(2);
  }
}

const { main, exitWhenDone } = require(cli);
main(process.argv.slice(2)).then(exitWhenDone);
