/**
 * The shared half of the scan benchmarks (migration-scan, schema-scan): an analysis scan against
 * a plain parallel Scan of the same table, same segments, same client, side by side in
 * alternating rounds on one DynamoDB Local, compared round by round. Also the analysis alone
 * (no I/O), to show what it costs per item. Not a bench itself (no `.bench.ts`): the two files
 * that are call runScanBench with their scan.
 */
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  type DynamoDBClient,
  ScanCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { localClient, startDynamoLocal } from '../support/dynamo-local';

export interface ScanBench {
  /** The series' name in the output ("migration", "schema"). */
  name: string;
  table: string;
  items: number;
  segments: number;
  rounds: number;
  /** One full analysis scan; returns the items it read. */
  scan(client: DynamoDBClient, table: string, round: number): Promise<number>;
  /** Analyses these items once in memory (a fresh accumulator each call). */
  analyse(items: Record<string, AttributeValue>[]): void;
}

/** A ~400-byte order: nested map, a list of maps, dates in three forms, a dotted shadow on 1 in 10. */
export function order(i: number): Record<string, AttributeValue> {
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

/** An on-demand table keyed by `pk` (S), for orders. */
export async function createOrders(client: DynamoDBClient, table: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
}

async function load(client: DynamoDBClient, table: string, items: number): Promise<void> {
  await createOrders(client, table);
  await batchLoad(
    client,
    table,
    Array.from({ length: items }, (_, i) => order(i)),
    6,
  );
}

/**
 * A plain parallel BatchWriteItem load: `workers` loops each sending 25 items at a time, the
 * UnprocessedItems again. The copy benchmark's write reference, and how the scan benches fill.
 */
export async function batchLoad(
  client: DynamoDBClient,
  table: string,
  items: Record<string, AttributeValue>[],
  workers: number,
): Promise<void> {
  const batches: Record<string, AttributeValue>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let requests = (batches[next++] as Record<string, AttributeValue>[]).map((Item) => ({
        PutRequest: { Item },
      }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt >= 20) throw new Error(`${table}: items left unprocessed 20 times`);
        const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }));
        requests = (out.UnprocessedItems?.[table] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

/**
 * The reference: the same segments, every page read, items only counted. `withCapacity` asks
 * for ConsumedCapacity as the pre-flight does (for progress and pacing), to show what that costs.
 */
export async function plainScan(
  client: DynamoDBClient,
  table: string,
  segments: number,
  withCapacity = false,
): Promise<number> {
  let count = 0;
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let startKey: Record<string, AttributeValue> | undefined;
      for (let page = 0; page < 1_000_000; page++) {
        const out = await client.send(
          new ScanCommand({
            TableName: table,
            Segment: segment,
            TotalSegments: segments,
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
 * stable measure of what an analysis adds on top of a plain Scan.
 */
const cpuPerItem: Record<string, number[]> = {};

async function timed(run: () => Promise<number>, series: string, expected: number): Promise<number> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const items = await run();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  if (items !== expected) throw new Error(`read ${items} items, expected ${expected}`);
  (cpuPerItem[series] ??= []).push((used.user + used.system) / items);
  return items / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function analysisOnly(bench: ScanBench): number {
  const items = Array.from({ length: 20_000 }, (_, i) => order(i));
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    bench.analyse(items);
    rates.push(items.length / ((performance.now() - started) / 1000));
  }
  return median(rates);
}

export async function runScanBench(bench: ScanBench): Promise<void> {
  const { name, table, items, segments, rounds } = bench;
  const local = await startDynamoLocal();
  const client = localClient(local.endpoint);
  try {
    const loadStart = performance.now();
    await load(client, table, items);
    console.log(
      `loaded ${items} items in ${((performance.now() - loadStart) / 1000).toFixed(1)} s; ${segments} segments, ${rounds} alternating rounds`,
    );
    await plainScan(client, table, segments); // warm-up: JIT, connections, Local's caches
    const plain: number[] = [];
    const plainWithCapacity: number[] = [];
    const analysed: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Within a round the three series run in turn; every other round in reverse order, so a
      // load that rises or falls through a round favours neither the plain scans nor the analysis.
      const series: [number[], () => Promise<number>, string][] = [
        [plain, () => plainScan(client, table, segments), 'plain'],
        [plainWithCapacity, () => plainScan(client, table, segments, true), 'capacity'],
        [analysed, () => bench.scan(client, table, round), name],
      ];
      for (const [into, run, label] of round % 2 === 0 ? series : [...series].reverse())
        into.push(await timed(run, label, items));
      const cpuNow = (label: string) => (cpuPerItem[label]?.[round] ?? 0).toFixed(1);
      const faster = Math.max(plain[round] ?? 0, plainWithCapacity[round] ?? 0);
      console.log(
        `round ${round + 1}: plain ${plain[round]?.toFixed(0)}, plain+capacity ${plainWithCapacity[round]?.toFixed(0)}, ${name} ${analysed[round]?.toFixed(0)} items/s = ${(((analysed[round] ?? 0) / faster) * 100).toFixed(1)}%; client CPU per item ${cpuNow('plain')} / ${cpuNow('capacity')} / ${cpuNow(name)} µs`,
      );
    }
    // The shared machine's load swings within a run, so each round's analysis scan is compared
    // with the plain scans right before it (paired), and the median of those ratios is the figure.
    const ratios = analysed.map((m, i) => m / Math.max(plain[i] ?? 0, plainWithCapacity[i] ?? 0));
    const ratio = median(ratios);
    console.log(`plain parallel Scan   ${median(plain).toFixed(0)} items/s (median)`);
    console.log(`plain + ConsumedCap.  ${median(plainWithCapacity).toFixed(0)} items/s (median)`);
    console.log(`${`${name} scan`.padEnd(22)}${median(analysed).toFixed(0)} items/s (median)`);
    console.log(
      `paired ratio          ${(ratio * 100).toFixed(1)}% of the faster plain scan of each round (median; goal ≥ 90%) ${ratio >= 0.9 ? 'MET' : 'NOT MET'}`,
    );
    const atGoal = ratios.filter((r) => r >= 0.9).length;
    console.log(
      `every round           ${atGoal} of ${ratios.length} rounds ≥ 90% (lowest ${(Math.min(...ratios) * 100).toFixed(1)}%)`,
    );
    // The bench's own noise: the two plain scans of a round do (nearly) the same work, so how far
    // the slower falls below the faster is what a round's ratio cannot tell from chance.
    const spread = plain.map(
      (p, i) => Math.min(p, plainWithCapacity[i] ?? 0) / Math.max(p, plainWithCapacity[i] ?? 0),
    );
    console.log(
      `plain scans' spread  slower ÷ faster plain ${spread.map((r) => `${(r * 100).toFixed(1)}%`).join(', ')}; ${spread.filter((r) => r >= 0.9).length} of ${spread.length} rounds ≥ 90%`,
    );
    const cpu = (series: string) => median(cpuPerItem[series] ?? []).toFixed(1);
    console.log(
      `client CPU per item   plain ${cpu('plain')} µs, plain+capacity ${cpu('capacity')} µs, ${name} ${cpu(name)} µs (median)`,
    );
    console.log(`analysis alone        ${analysisOnly(bench).toFixed(0)} items/s on one core (no I/O)`);
  } finally {
    client.destroy();
    await local.stop();
  }
}
