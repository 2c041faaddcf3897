/**
 * `npm run bench`: runs every tests/bench/*.bench.ts, one child process each (so one bench's
 * heap or warm JIT never colours another's figures), one after the other (2 cores). An argument
 * filters by file name: `npm run bench -- migration`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const filter = process.argv[2] ?? '';
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
const tsx = path.resolve(__dirname, '../../node_modules/tsx/dist/cli.mjs');
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file}\n`);
  const result = spawnSync(process.execPath, ['--expose-gc', tsx, path.join(__dirname, file)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed += 1;
}
process.stdout.write(`\n${files.length - failed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 ? 1 : 0;
