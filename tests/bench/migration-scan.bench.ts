/**
 * The migration pre-flight scan against a plain parallel Scan (scan-bench.ts). Goal: ≥ 90% of
 * the plain Scan's items/s.
 * Run: npm run bench -- migration   (env MIGRATION_BENCH_ITEMS, default 60000; SEGMENTS, default 4; ROUNDS, default 7;
 * PASSES, scans of each series per round, default 2)
 */
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { runMigrationScan } from '../../src/main/migration/scan-migration';
import { runScanBench } from './scan-bench';

const segments = Number(process.env.SEGMENTS ?? 4);

void runScanBench({
  name: 'migration',
  table: 'migration_bench',
  items: Number(process.env.MIGRATION_BENCH_ITEMS ?? 60_000),
  segments,
  rounds: Number(process.env.ROUNDS ?? 7),
  async scan(client, table, round) {
    const { report } = await runMigrationScan({
      client,
      table,
      scanId: `bench-${round}`,
      segments,
      signal: new AbortController().signal,
    });
    return report.itemsScanned;
  },
  analyse(items) {
    SchemaAccumulator.findingsOnly({ keyAttributes: ['pk'] }).addAll(items);
  },
}).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
