/**
 * Client CPU per item from a Scan's HTTP response to rows the grid can show, against
 * JSON.parse of the same response bytes. `npm run bench -- items-pipeline`
 * (env ITEMS_BENCH_ITEMS, default 100,000 items of ~1 KB; ROUNDS, default 7).
 *
 * The pages are scanned once from a real DynamoDB Local and their bytes kept; every pipeline
 * then runs on those bytes (DynamoDB Local's own time is not the client's). CPU is the whole
 * process's (process.cpuUsage), so the result-set worker thread counts too.
 */
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import { createResultSetStore } from '../../src/main/resultsets/store';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { startDynamoLocal } from '../support/dynamo-local';
import { recordingHandler, replayHandler, type Recorded } from './items-http-replay';
import { benchItem } from './items-data';
import { wireItemsMiddleware, wireItemsStep, type WireStash } from '../../src/main/dynamo/query/wire-items';
import { runRead } from '../../src/main/dynamo/query/run-read';

const COUNT = Number(process.env.ITEMS_BENCH_ITEMS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const TABLE = 'ItemsPipelineBench';

function client(
  endpoint: string,
  requestHandler?: DynamoDBClient['config']['requestHandler'],
): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...(requestHandler ? { requestHandler } : {}),
  });
}

async function load(db: DynamoDBClient): Promise<void> {
  await db.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < COUNT) {
      const start = next;
      next += 25;
      const batch = [];
      for (let i = start; i < Math.min(COUNT, start + 25); i++)
        batch.push({ PutRequest: { Item: toSdkItem(benchItem(i)) } });
      let pending: typeof batch | undefined = batch;
      while (pending && pending.length > 0) {
        const response = await db.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: pending } }));
        pending = response.UnprocessedItems?.[TABLE] as typeof batch | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, lane));
}

async function record(endpoint: string): Promise<Recorded[]> {
  const pages: Recorded[] = [];
  const db = client(endpoint, recordingHandler(pages));
  let start: Record<string, never> | undefined;
  let items = 0;
  do {
    const page = await db.send(
      new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start, ReturnConsumedCapacity: 'TOTAL' }),
    );
    items += page.Count ?? 0;
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  db.destroy();
  if (items !== COUNT) throw new Error(`scanned ${items}, expected ${COUNT}`);
  return pages;
}

function cpu(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** The result-set worker, started (and warmed) once: its start-up is not per item. */
const store = createResultSetStore();

/** CPU per item of one run. */
async function sample(run: () => Promise<void>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = cpu();
  await run();
  return (cpu() - before) / COUNT;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function report(label: string, samples: number[]): void {
  console.log(
    `${label.padEnd(52)} ${median(samples).toFixed(2).padStart(7)} µs/item  (rounds: ${samples.map((s) => s.toFixed(1)).join(', ')})`,
  );
}

/**
 * Runs the pipelines in alternation, round after round, so a load spike from elsewhere on the
 * machine hits the reference and the path alike; the ratio is the median of each round's own.
 */
async function measurePaired(runs: Record<string, () => Promise<void>>): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = {};
  for (const run of Object.values(runs)) await run(); // warm-up: JIT, the worker's modules
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(runs)) (samples[name] ??= []).push(await sample(run));
  return samples;
}

export const pipelines = {
  /** The reference: JSON.parse of each page's bytes. */
  baseline: (pages: Recorded[]) => async (): Promise<void> => {
    let n = 0;
    for (const page of pages)
      n += (JSON.parse(page.body.toString('utf8')) as { Items: unknown[] }).Items.length;
    if (n !== COUNT) throw new Error('baseline lost items');
    await Promise.resolve();
  },
  /** The SDK's Scan output (its own deserializer), converted with fromSdkItem, appended, first window read. */
  sdk: (pages: Recorded[]) => async (): Promise<void> => {
    const db = client('http://replay.invalid', replayHandler(pages));
    const id = await store.create({ connectionId: 'bench', table: TABLE, keyAttributes: ['PK', 'SK'] });
    for (let i = 0; i < pages.length; i++) {
      const page = await db.send(new ScanCommand({ TableName: TABLE }));
      const rows: Item[] = (page.Items ?? []).map(fromSdkItem);
      await store.append(id, rows);
    }
    await store.window(id, 0, 100);
    await store.drop(id);
    db.destroy();
  },
  /**
   * DynoTable's read path (run-read.ts): the SDK signs and sends, wire-items.ts hands the body's
   * bytes to the result-set worker, which encodes Items straight from them; first window read.
   */
  wire: (pages: Recorded[]) => async (): Promise<void> => {
    const db = client('http://replay.invalid', replayHandler(pages));
    const id = await store.create({ connectionId: 'bench', table: TABLE, keyAttributes: ['PK', 'SK'] });
    let items = 0;
    for (let i = 0; i < pages.length; i++) {
      const stash: WireStash = {};
      const command = new ScanCommand({ TableName: TABLE });
      command.middlewareStack.add(wireItemsMiddleware(store, id, stash), wireItemsStep);
      await db.send(command);
      items += stash.page?.items ?? 0;
    }
    if (items !== COUNT) throw new Error(`wire path stored ${items} items`);
    await store.window(id, 0, 100);
    await store.drop(id);
    db.destroy();
  },
  /** The Items tab's whole read (runRead: its page loop, cursor, progress and page events) on the same bytes. */
  items: (pages: Recorded[]) => async (): Promise<void> => {
    const db = client('http://replay.invalid', replayHandler(pages));
    const id = await store.create({ connectionId: 'bench', table: TABLE, keyAttributes: ['PK', 'SK'] });
    let events = 0;
    const outcome = await runRead(
      db,
      store,
      {
        request: { operation: 'Scan', input: { TableName: TABLE } },
        resultSetId: id,
        pageSize: 1000,
        maxItems: COUNT,
        untilMatches: false,
        maxPages: 100_000,
        itemCount: COUNT,
      },
      {
        signal: new AbortController().signal,
        emit: () => {
          events++;
        },
      },
    );
    if (outcome.progress.items !== COUNT || events === 0)
      throw new Error(`runRead stored ${outcome.progress.items} items`);
    await store.window(id, 0, 100);
    await store.drop(id);
    db.destroy();
  },
};

async function main(): Promise<void> {
  const local = await startDynamoLocal();
  try {
    const db = client(local.endpoint);
    const sample = benchItem(7);
    console.log(
      `loading ${COUNT.toLocaleString('en-US')} items of ~${Buffer.byteLength(JSON.stringify(sample))} bytes (tagged JSON) into DynamoDB Local…`,
    );
    const loadStarted = Date.now();
    await load(db);
    db.destroy();
    console.log(`loaded in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s`);
    const pages = await record(local.endpoint);
    const bytes = pages.reduce((n, p) => n + p.body.length, 0);
    console.log(`recorded ${pages.length} pages, ${(bytes / 2 ** 20).toFixed(1)} MiB of response bytes`);
    const samples = await measurePaired({
      baseline: pipelines.baseline(pages),
      sdk: pipelines.sdk(pages),
      wire: pipelines.wire(pages),
      items: pipelines.items(pages),
    });
    const { baseline = [], sdk = [], wire = [], items = [] } = samples;
    report('JSON.parse of the response bytes (reference)', baseline);
    report('SDK Scan → fromSdkItem → result set → window', sdk);
    report('DynoTable: bytes → worker encoder → result set → window', wire);
    report("the Items tab's read (runRead) on the same bytes", items);
    const ratios = (path: number[]): string => {
      const each = path.map((value, round) => value / (baseline[round] ?? value));
      return `${median(each).toFixed(2)} (rounds: ${each.map((r) => r.toFixed(2)).join(', ')})`;
    };
    console.log(`ratio to JSON.parse, median of paired rounds: SDK objects ${ratios(sdk)}`);
    console.log(`ratio to JSON.parse, median of paired rounds: DynoTable's path ${ratios(wire)} (goal ≤ 2)`);
    console.log(`ratio to JSON.parse, median of paired rounds: the Items tab's read ${ratios(items)}`);
  } finally {
    await store.close();
    await local.stop();
  }
}

void main();
