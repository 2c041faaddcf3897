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
import { execFileSync } from 'node:child_process';
import { localClient, startDynamoLocal } from '../support/dynamo-local';
import { type ScanTracer, scanTracer } from './scan-trace';

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
  /**
   * What the app runs before a user's first scan (the schema analysis' idle warm-up): run once
   * before the rounds, timed and printed apart; returns what to print of it.
   */
  warmUp?(): Promise<string>;
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

/** One timed scan: its seconds (the round adds its series' scans up), its client CPU per item kept. */
async function timed(
  run: () => Promise<number>,
  series: string,
  expected: number,
  tracer: ScanTracer,
): Promise<number> {
  tracer.begin(series);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const items = await run();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  const traced = await tracer.end(series, seconds * 1000);
  if (traced) console.log(traced);
  if (items !== expected) throw new Error(`read ${items} items, expected ${expected}`);
  (cpuPerItem[series] ??= []).push((used.user + used.system) / items);
  return seconds;
}

/**
 * DynamoDB Local's JVM for the scan benches, unless JAVA_TOOL_OPTIONS says otherwise. With
 * Java's defaults on this machine (G1, a heap that grows to ~3 GB) its collector paused it for
 * ~30% of a run's wall time, in pauses of 100–700 ms whose count per scan depends on where the
 * last one fell: one scan got one more than its neighbour (docs/PERFORMANCE.md, "session 21").
 * A fixed heap with a young generation a scan's garbage mostly fits in, the throughput
 * collector, and C2 kept (these are long runs, unlike the tests' quick JVMs).
 */
export const BENCH_JVM_OPTIONS = '-XX:+UseParallelGC -Xms3g -Xmx3g -Xmn2g';

/**
 * Before every timed scan DynamoDB Local's heap is collected (jcmd's GC.run, untimed), so every
 * scan of either series starts with an empty young generation and, at this heap, meets no
 * collection while timed. The client's heap is left alone: a forced full GC in Node drops the
 * hidden classes no live object uses and the compiled code that depends on them, which charged
 * the schema scan a recompile in every round (docs/PERFORMANCE.md, "session 21").
 * BENCH_SETTLE=0 leaves the JVM's heap alone too.
 */
function settler(javaPid: number | undefined): () => void {
  if (process.env.BENCH_SETTLE === '0' || javaPid === undefined) return () => undefined;
  // jcmd is a java too: not with the bench's JAVA_TOOL_OPTIONS (a 3 GB heap, a GC log of its own).
  const env = { ...process.env };
  delete env.JAVA_TOOL_OPTIONS;
  return () => execFileSync('jcmd', [String(javaPid), 'GC.run'], { stdio: 'ignore', env });
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
  const passes = Number(process.env.PASSES ?? 2);
  process.env.JAVA_TOOL_OPTIONS ??= BENCH_JVM_OPTIONS;
  console.log(
    `DynamoDB Local's JVM: ${process.env.JAVA_TOOL_OPTIONS}; its heap collected before each scan: ${process.env.BENCH_SETTLE === '0' ? 'no' : 'yes'}`,
  );
  const local = await startDynamoLocal();
  const settle = settler(local.process.pid);
  const client = localClient(local.endpoint);
  const tracer = scanTracer(client, local.process.pid);
  try {
    const loadStart = performance.now();
    await load(client, table, items);
    console.log(
      `loaded ${items} items in ${((performance.now() - loadStart) / 1000).toFixed(1)} s; ${segments} segments, ${rounds} rounds of ${passes} passes (ABBA)`,
    );
    await plainScan(client, table, segments); // JIT, connections, Local's caches
    if (bench.warmUp) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const said = await bench.warmUp();
      const used = process.cpuUsage(cpu);
      console.log(
        `app's warm-up         ${said}: ${(performance.now() - started).toFixed(0)} ms, ${((used.user + used.system) / 1000).toFixed(0)} ms of CPU (before the rounds, not in them)`,
      );
    }
    // Each series' items/s in a round: all its scans of the round pooled (items ÷ their seconds).
    const plain: number[] = [];
    const plainWithCapacity: number[] = [];
    const analysed: number[] = [];
    // The same from each round's first pass alone: a round of one scan each, as the bench ran
    // before rounds had passes, printed beside the pooled figures to show what pooling changed.
    const firstPass = { plain: [] as number[], capacity: [] as number[], analysed: [] as number[] };
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    // Round -1 is a warm-up round for both sides, run and printed but not counted: DynamoDB
    // Local's JVM compiles its Scan path over the first scans (its C2 compiles, its heap sized
    // by its first collections), which would otherwise fall on round 1's scans in their order.
    for (let round = -1; round < rounds; round++) {
      // The analysis runs between the two plain scans; the pass order reverses from one pass to
      // the next (plain, analysis, capacity, then capacity, analysis, plain: ABBA), so a load
      // that rises or falls through a round moves every series alike, and the first pass's order
      // swaps every other round, so neither plain series always runs first.
      const series = [
        { label: 'plain', run: () => plainScan(client, table, segments), seconds: [] as number[] },
        { label: name, run: () => bench.scan(client, table, round), seconds: [] as number[] },
        { label: 'capacity', run: () => plainScan(client, table, segments, true), seconds: [] as number[] },
      ];
      for (let pass = 0; pass < passes; pass++) {
        for (const s of (round + pass) % 2 === 0 ? series : [...series].reverse()) {
          settle();
          s.seconds.push(await timed(s.run, round < 0 ? `warm-${s.label}` : s.label, items, tracer));
        }
      }
      const [p, m, c] = series.map(
        (s) => (items * s.seconds.length) / s.seconds.reduce((a, b) => a + b, 0),
      ) as [number, number, number];
      const [p1, m1, c1] = series.map((s) => items / (s.seconds[0] as number)) as [number, number, number];
      if (round >= 0) {
        plain.push(p);
        analysed.push(m);
        plainWithCapacity.push(c);
        firstPass.plain.push(p1);
        firstPass.analysed.push(m1);
        firstPass.capacity.push(c1);
      }
      const cpuNow = (label: string) => {
        const all = cpuPerItem[round < 0 ? `warm-${label}` : label] ?? [];
        return (all.slice(-passes).reduce((a, b) => a + b, 0) / Math.min(passes, all.length)).toFixed(1);
      };
      console.log(
        `${round < 0 ? 'warm-up round (not counted)' : `round ${round + 1}`}: plain ${p.toFixed(0)}, plain+capacity ${c.toFixed(0)}, ${name} ${m.toFixed(0)} items/s = ${pct(m / Math.max(p, c))} of the faster, ${pct(m / ((p + c) / 2))} of their mean; client CPU per item ${cpuNow('plain')} / ${cpuNow('capacity')} / ${cpuNow(name)} µs` +
          (passes > 1
            ? `; first pass alone ${pct(m1 / Math.max(p1, c1))}, plain spread ${pct(Math.min(p, c) / Math.max(p, c))} (first pass ${pct(Math.min(p1, c1) / Math.max(p1, c1))})`
            : ''),
      );
    }
    // The shared machine's load swings within a run, so each round's analysis scan is compared
    // with the plain scans right beside it (paired), and the median of those ratios is the figure.
    // The goal's measure: against the faster of the two, which also counts their own spread
    // against the analysis. Beside it, against their mean (the analysis is their neighbour on
    // both sides): docs/PERFORMANCE.md argues which one the goal is judged by.
    const goal = (m: number[], p: number[], c: number[]) =>
      m.map((x, i) => x / Math.max(p[i] ?? 0, c[i] ?? 0));
    // The bench's own noise: the two plain scans of a round do (nearly) the same work, so how far
    // the slower falls below the faster is what a round's ratio cannot tell from chance.
    const spreadOf = (p: number[], c: number[]) =>
      p.map((x, i) => Math.min(x, c[i] ?? 0) / Math.max(x, c[i] ?? 0));
    const ratios = goal(analysed, plain, plainWithCapacity);
    const ratio = median(ratios);
    const meanRatios = analysed.map((m, i) => m / (((plain[i] ?? 0) + (plainWithCapacity[i] ?? 0)) / 2));
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
    console.log(
      `against their mean    ${(median(meanRatios) * 100).toFixed(1)}% (median); ${meanRatios.filter((r) => r >= 0.9).length} of ${meanRatios.length} rounds ≥ 90% (lowest ${(Math.min(...meanRatios) * 100).toFixed(1)}%)`,
    );
    const spread = spreadOf(plain, plainWithCapacity);
    console.log(
      `plain scans' spread  slower ÷ faster plain ${spread.map((r) => `${(r * 100).toFixed(1)}%`).join(', ')}; ${spread.filter((r) => r >= 0.9).length} of ${spread.length} rounds ≥ 90%`,
    );
    if (passes > 1) {
      const once = goal(firstPass.analysed, firstPass.plain, firstPass.capacity);
      const onceSpread = spreadOf(firstPass.plain, firstPass.capacity);
      console.log(
        `first pass alone      (one scan each, as before ${passes} passes a round) ${pct(median(once))} (median); ${once.filter((r) => r >= 0.9).length} of ${once.length} rounds ≥ 90% (lowest ${pct(Math.min(...once))}); plain spread ${onceSpread.filter((r) => r >= 0.9).length} of ${onceSpread.length} rounds ≥ 90% (median ${pct(median(onceSpread))}, against ${pct(median(spread))} pooled)`,
      );
    }
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
