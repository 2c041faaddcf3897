/**
 * The Schema view's full scan (analyzeSchema: per-path statistics for all items and per entity,
 * HyperLogLog, progress, report) against a plain parallel Scan (scan-bench.ts), on the
 * pre-flight benchmark's data. Goal (issue 15): ≥ 90% of the plain Scan's items/s.
 * Run: npm run bench -- schema   (env SCHEMA_BENCH_ITEMS, default 30000; SEGMENTS, default 4; ROUNDS, default 5)
 */
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { analyzeSchema } from '../../src/main/schema/analyze';
import { runScanBench } from './scan-bench';

const segments = Number(process.env.SEGMENTS ?? 4);

void runScanBench({
  name: 'schema',
  table: 'schema_bench',
  items: Number(process.env.SCHEMA_BENCH_ITEMS ?? 30_000),
  segments,
  rounds: Number(process.env.ROUNDS ?? 5),
  async scan(client, table, round) {
    const { report } = await analyzeSchema({
      client,
      table,
      mode: 'full',
      scanId: `bench-${round}`,
      segments,
      signal: new AbortController().signal,
    });
    return report.itemsScanned;
  },
  analyse(items) {
    new SchemaAccumulator({
      keys: { partitionKey: { name: 'pk', type: 'S' } },
      entities: { kind: 'keys' },
    }).addAll(items);
  },
}).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
