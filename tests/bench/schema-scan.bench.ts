/**
 * The Schema view's full scan (analyzeSchema: per-path statistics for all items and per entity,
 * HyperLogLog, progress, report) against a plain parallel Scan (scan-bench.ts), on the
 * pre-flight benchmark's data, both as they ship (one bundle, as-shipped.ts).
 * Goal (issue 15): ≥ 90% of the plain Scan's items/s; issue 32: in every round of 7.
 * Run: npm run bench -- schema   (env SCHEMA_BENCH_ITEMS, default 30000; SEGMENTS, default 4;
 * ROUNDS, default 5; PASSES, scans of each series per round, default 2; BENCH_FROM=source to
 * run the source under tsx instead; SCHEMA_BENCH_CONTROL=plain to run a plain Scan in the schema
 * scan's place, =no-capacity to run the schema scan without ReturnConsumedCapacity; BENCH_TRACE
 * and BENCH_NODE_FLAGS: what each scan cost, see scan-trace.ts)
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { splitWirePage, type WireItems } from '../../src/main/dynamo/query/wire-page';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { analyzeSchema } from '../../src/main/schema/analyze';
import { startSchemaWarmUp } from '../../src/main/schema/warm-up';
import { codeForm, relaunchedAsShipped } from './as-shipped';
import { plainScan, runScanBench } from './scan-bench';

const segments = Number(process.env.SEGMENTS ?? 4);
const control = process.env.SCHEMA_BENCH_CONTROL;

/**
 * SCHEMA_BENCH_CONTROL=no-capacity: the schema scan's requests without ReturnConsumedCapacity
 * (its report then says 0 RCU), to show what that one difference from a plain Scan costs on
 * DynamoDB Local: its request threads' CPU, about 100 ms more per 30,000-item scan
 * (docs/PERFORMANCE.md, "session 23"). A calibration, not a product option: the report's RCU
 * figure and a capacity-paced scan need it.
 */
const withoutCapacity = new WeakSet<DynamoDBClient>();
function stripCapacity(client: DynamoDBClient): void {
  if (withoutCapacity.has(client)) return;
  withoutCapacity.add(client);
  client.middlewareStack.add(
    (next) => (args) => {
      if (isStripping) delete (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity;
      return next(args);
    },
    { step: 'initialize', name: 'schemaBenchNoCapacity' },
  );
}
let isStripping = false;

/**
 * The items as the scan gets them: response bodies of ~1 MB, split (wire-page.ts). Made once per
 * items array, so only the first of the analysis-alone rounds pays for it (the median does not).
 */
const wirePages = new WeakMap<object, WireItems[]>();
function wirePagesOf(items: Record<string, AttributeValue>[]): WireItems[] {
  let pages = wirePages.get(items);
  if (!pages) {
    pages = [];
    for (let i = 0; i < items.length; i += 2500) {
      const Items = items.slice(i, i + 2500);
      pages.push(splitWirePage(Buffer.from(JSON.stringify({ Count: Items.length, Items }))).items);
    }
    wirePages.set(items, pages);
  }
  return pages;
}

// BENCH_NODE_FLAGS: flags for the bundle's node, e.g. V8's '--trace-opt --trace-deopt'.
const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean);
if (!relaunchedAsShipped(__filename, { nodeFlags })) {
  console.log(`schema scan bench on ${codeForm()}`);
  void runScanBench({
    name: 'schema',
    table: 'schema_bench',
    items: Number(process.env.SCHEMA_BENCH_ITEMS ?? 30_000),
    segments,
    rounds: Number(process.env.ROUNDS ?? 5),
    // As the desktop app does after start-up (warm-up.ts), here to the end before the rounds.
    async warmUp() {
      const steps = await startSchemaWarmUp({ startAfterMs: 0 }).done;
      return `the schema analysis' idle warm-up, ${steps} steps`;
    },
    async scan(client, table, round) {
      // The bench's own calibration: the reference in the analysis' place (a plain Scan asking
      // for ConsumedCapacity, as the schema scan does), to see what the measure gives a scan
      // that costs the same.
      if (control === 'plain') return plainScan(client, table, segments, true);
      if (control === 'no-capacity') stripCapacity(client);
      isStripping = control === 'no-capacity';
      try {
        const { report } = await analyzeSchema({
          client,
          table,
          mode: 'full',
          scanId: `bench-${round}`,
          segments,
          signal: new AbortController().signal,
        });
        return report.itemsScanned;
      } finally {
        isStripping = false;
      }
    },
    // As the scan analyses a page: walked from its bytes (addWire), not from parsed items.
    analyse(items) {
      const accumulator = new SchemaAccumulator({
        keys: { partitionKey: { name: 'pk', type: 'S' } },
        entities: { kind: 'keys' },
      });
      for (const page of wirePagesOf(items)) accumulator.addWire(page);
    },
  }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
