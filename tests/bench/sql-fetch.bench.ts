/**
 * The SQL fetch's client side at 100,000 items: the old loop (ScanCommand through the SDK's
 * deserializer, then appendSdkItems) against the one read engine on the wire path (segmentedScan
 * with items: 'wire', each page's Items read from the bytes by the table: readWireItems), both with the real SDK client over HTTP replayed
 * from memory (items-http-replay.ts), so DynamoDB Local's time is not in the figures.
 * Run: npm run bench -- sql-fetch   (env SQL_FETCH_ITEMS, default 100000; ROUNDS, default 5)
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { initialCursors, segmentedScan } from '../../src/main/dynamo/read/segmented-read';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { type Recorded, replayHandler } from './items-http-replay';
import { makeItem, type SdkItem } from './sql-data';

const count = Number(process.env.SQL_FETCH_ITEMS ?? 100_000);
const rounds = Number(process.env.ROUNDS ?? 5);
const PAGE = 1000;

function recordedPages(): Recorded[] {
  const users = Math.ceil(count / 10);
  const out: Recorded[] = [];
  for (let start = 0; start < count; start += PAGE) {
    const items: SdkItem[] = [];
    for (let i = start; i < Math.min(count, start + PAGE); i++) items.push(makeItem(i, users));
    const last = items[items.length - 1]!;
    const more = start + PAGE < count;
    const body = JSON.stringify({
      Count: items.length,
      Items: items,
      ScannedCount: items.length,
      ConsumedCapacity: { TableName: 'App', CapacityUnits: 128 },
      ...(more ? { LastEvaluatedKey: { PK: last.PK, SK: last.SK } } : {}),
    });
    out.push({
      statusCode: 200,
      headers: { 'content-type': 'application/x-amz-json-1.0' },
      body: Buffer.from(body),
    });
  }
  return out;
}

const pages = recordedPages();
const client = () =>
  keepProtoNames(
    new DynamoDBClient({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:1',
      credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
      requestHandler: replayHandler(pages),
    }),
  );

async function sdkLoop(): Promise<number> {
  const c = client();
  const table = new ColumnarTable('App', ['PK', 'SK']);
  let startKey: SdkItem | undefined;
  do {
    const out = await c.send(new ScanCommand({ TableName: 'App', ExclusiveStartKey: startKey }));
    table.appendSdkItems(out.Items ?? []);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  c.destroy();
  return table.rowCount;
}

async function engineWire(): Promise<number> {
  const c = client();
  const table = new ColumnarTable('App', ['PK', 'SK']);
  await segmentedScan({
    client: c,
    table: 'App',
    cursors: initialCursors(1),
    totalSegments: 1,
    signal: new AbortController().signal,
    items: 'wire',
    readItems: (body, from) => table.readWireItems(body, from),
    onPage: () => undefined,
  });
  table.finish();
  c.destroy();
  return table.rowCount;
}

async function measure(run: () => Promise<number>): Promise<{ ms: number; cpu: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rows = await run();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (rows !== count) throw new Error(`read ${rows} rows, expected ${count}`);
  return { ms, cpu: (cpu.user + cpu.system) / 1000 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  console.log(
    `sql-fetch: ${count} items, ${pages.length} pages, ${rounds} rounds; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
  );
  await sdkLoop();
  await engineWire(); // warm both
  const sdk: { ms: number; cpu: number }[] = [];
  const wire: { ms: number; cpu: number }[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const a = await measure(sdkLoop);
    const b = await measure(engineWire);
    sdk.push(a);
    wire.push(b);
    ratios.push(a.cpu / b.cpu);
    console.log(
      `round ${r + 1}: SDK loop ${a.ms.toFixed(0)} ms (cpu ${a.cpu.toFixed(0)}), engine wire ${b.ms.toFixed(0)} ms (cpu ${b.cpu.toFixed(0)})`,
    );
  }
  const m = (xs: { ms: number; cpu: number }[], k: 'ms' | 'cpu') => median(xs.map((x) => x[k]));
  console.log(
    `median: SDK loop ${m(sdk, 'ms').toFixed(0)} ms / ${((m(sdk, 'cpu') * 1000) / count).toFixed(2)} µs cpu per item; ` +
      `engine wire ${m(wire, 'ms').toFixed(0)} ms / ${((m(wire, 'cpu') * 1000) / count).toFixed(2)} µs cpu per item; ` +
      `paired CPU ratio SDK/wire ${median(ratios).toFixed(2)}× (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
