/**
 * The Schema view's full scan (analyzeSchema: per-path statistics for all items and per entity,
 * HyperLogLog, progress, report) against a plain parallel Scan of the same table, same segments,
 * same client, in alternating rounds on one DynamoDB Local. Goal (issue 15): ≥ 90% of the plain
 * Scan's items/s. The data and the reference are the pre-flight benchmark's (migration-scan.bench.ts, copied: a bench file runs on import).
 * Run: npm run bench -- schema   (env SCHEMA_BENCH_ITEMS, default 30000; SEGMENTS, default 4; ROUNDS, default 5)
 */
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  type DynamoDBClient,
  ScanCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { analyzeSchema } from '../../src/main/schema/analyze';
import { localClient, startDynamoLocal } from '../support/dynamo-local';

const ITEMS = Number(process.env.SCHEMA_BENCH_ITEMS ?? 30_000);
const SEGMENTS = Number(process.env.SEGMENTS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

/** A ~400-byte order: nested map, a list of maps, dates in three forms, a dotted shadow on 1 in 10. */
function order(i: number): Record<string, AttributeValue> {
  const at = 1_700_000_000_000 + i * 1000;
  return {
    pk: { S: `ORDER#${i.toString(36).padStart(8, '0')}` },
    status: { S: ['NEW', 'PAID', 'SHIPPED'][i % 3] as string },
    createdAt:
      i % 3 === 0
        ? { S: new Date(at).toISOString() }
        : i % 3 === 1
          ? { N: String(at) }
          : { N: String(Math.round(at / 1000)) },
    price: { N: String(1_700_000_000 + i) },
    address: { M: { street: { S: `${i} Calle Mayor` }, city: { S: 'Madrid' }, zip: { S: '28013' } } },
    lines: {
      L: [0, 1, 2].map((n) => ({
        M: {
          sku: { S: `SKU-${(i * 7 + n) % 997}` },
          qty: { N: String(1 + n) },
          addedAt: { S: new Date(at + n).toISOString() },
        },
      })),
    },
    note: { S: `Customer asked for delivery after 2024-01-05, ref ${i}` },
    ...(i % 10 === 0 ? { 'address.city': { S: 'Valencia' } } : {}),
  };
}

async function load(client: DynamoDBClient, table: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  const batches: Record<string, AttributeValue>[][] = [];
  for (let i = 0; i < ITEMS; i += 25)
    batches.push(Array.from({ length: Math.min(25, ITEMS - i) }, (_, j) => order(i + j)));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let items = (batches[next++] as Record<string, AttributeValue>[]).map((Item) => ({
        PutRequest: { Item },
      }));
      for (let attempt = 0; items.length > 0 && attempt < 20; attempt++) {
        const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: items } }));
        items = (out.UnprocessedItems?.[table] ?? []) as typeof items;
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

/**
 * The reference: the same segments, every page read, items only counted. `withCapacity` asks
 * for ConsumedCapacity as the pre-flight does (for progress and pacing), to show what that costs.
 */
async function plainScan(client: DynamoDBClient, table: string, withCapacity = false): Promise<number> {
  let count = 0;
  await Promise.all(
    Array.from({ length: SEGMENTS }, async (_, segment) => {
      let startKey: Record<string, AttributeValue> | undefined;
      for (let page = 0; page < 1_000_000; page++) {
        const out = await client.send(
          new ScanCommand({
            TableName: table,
            Segment: segment,
            TotalSegments: SEGMENTS,
            ExclusiveStartKey: startKey,
            ...(withCapacity ? { ReturnConsumedCapacity: 'TOTAL' as const } : {}),
          }),
        );
        count += out.Items?.length ?? 0;
        startKey = out.LastEvaluatedKey;
        if (!startKey) break;
      }
    }),
  );
  return count;
}

/**
 * CPU time this process spent per item, by series. Wall-clock items/s on a shared 2-core box
 * swings with DynamoDB Local's (Java's) share of the CPU; the client's own CPU per item is the
 * stable measure of what the pre-flight adds on top of a plain Scan.
 */
const cpuPerItem: Record<string, number[]> = {};

async function timed(run: () => Promise<number>, series: string): Promise<number> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const items = await run();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  if (items !== ITEMS) throw new Error(`read ${items} items, expected ${ITEMS}`);
  (cpuPerItem[series] ??= []).push((used.user + used.system) / items);
  return items / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function analysisOnly(): number {
  const items = Array.from({ length: 20_000 }, (_, i) => order(i) as unknown as Item);
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    const acc = new SchemaAccumulator({
      keys: { partitionKey: { name: 'pk', type: 'S' } },
      entities: { kind: 'keys' },
    });
    const started = performance.now();
    acc.addAll(items as never);
    rates.push(items.length / ((performance.now() - started) / 1000));
  }
  return median(rates);
}

async function main(): Promise<void> {
  const local = await startDynamoLocal();
  const client = localClient(local.endpoint);
  try {
    const table = 'schema_bench';
    const loadStart = performance.now();
    await load(client, table);
    console.log(
      `loaded ${ITEMS} items in ${((performance.now() - loadStart) / 1000).toFixed(1)} s; ${SEGMENTS} segments, ${ROUNDS} alternating rounds`,
    );
    await plainScan(client, table); // warm-up: JIT, connections, Local's caches
    const plain: number[] = [];
    const plainWithCapacity: number[] = [];
    const schema: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await timed(() => plainScan(client, table), 'plain'));
      plainWithCapacity.push(await timed(() => plainScan(client, table, true), 'capacity'));
      schema.push(
        await timed(async () => {
          const { report } = await analyzeSchema({
            client,
            table,
            mode: 'full',
            scanId: `bench-${round}`,
            segments: SEGMENTS,
            signal: new AbortController().signal,
          });
          return report.itemsScanned;
        }, 'schema'),
      );
      console.log(
        `round ${round + 1}: plain ${plain[round]?.toFixed(0)}, plain+capacity ${plainWithCapacity[round]?.toFixed(0)}, schema ${schema[round]?.toFixed(0)} items/s`,
      );
    }
    // The shared machine's load swings within a run, so each round's schema scan is compared
    // with the plain scans right before it (paired), and the median of those ratios is the figure.
    const ratio = median(schema.map((m, i) => m / Math.max(plain[i] ?? 0, plainWithCapacity[i] ?? 0)));
    console.log(`plain parallel Scan   ${median(plain).toFixed(0)} items/s (median)`);
    console.log(`plain + ConsumedCap.  ${median(plainWithCapacity).toFixed(0)} items/s (median)`);
    console.log(`schema full scan      ${median(schema).toFixed(0)} items/s (median)`);
    console.log(
      `paired ratio          ${(ratio * 100).toFixed(1)}% of the faster plain scan of each round (median; goal ≥ 90%) ${ratio >= 0.9 ? 'MET' : 'NOT MET'}`,
    );
    const cpu = (series: string) => median(cpuPerItem[series] ?? []).toFixed(1);
    console.log(
      `client CPU per item   plain ${cpu('plain')} µs, plain+capacity ${cpu('capacity')} µs, schema ${cpu('schema')} µs (median)`,
    );
    console.log(`analysis alone        ${analysisOnly().toFixed(0)} items/s on one core (no I/O)`);
  } finally {
    client.destroy();
    await local.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
