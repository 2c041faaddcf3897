/**
 * Copy throughput between two DynamoDB Local instances (two Java processes, two ports, two sets
 * of credentials), as a ratio to the slower of the two halves a copy is made of, each measured
 * plain in the same round: a parallel Scan of the source and a parallel BatchWriteItem load of
 * the same items into a fresh table of the target (issue #14's goal: at least 0.8). Same
 * segments, same clients (the app's transport settings) for all three. The copy runs through
 * runCopy, as the app and the CLI do: checkpoints on disk, mapping, writer; the verification
 * pass is timed apart, once, because it is a second read of both sides, not the copy.
 */
import {
  type AttributeValue,
  DeleteTableCommand,
  type DynamoDBClient,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CopyStore, newCopyId } from '../../src/main/dynamo/copy/copy-checkpoint';
import { runCopy } from '../../src/main/dynamo/copy/copy-run';
import { newCheckpoint } from '../../src/main/dynamo/copy/copy-service';
import { dynamoClient } from '../../src/main/aws/dynamo-client';
import { sdkTransport } from '../../src/main/aws/sdk-options';
import { copyStartInput, type CopyReport } from '../../src/shared/ipc/copy';
import { startDynamoLocal } from '../support/dynamo-local';
import { batchLoad, createOrders, order, plainScan } from './scan-bench';

const ITEMS = Number(process.env.COPY_BENCH_ITEMS ?? 10_000);
const SEGMENTS = 4;
const ROUNDS = Number(process.env.ROUNDS ?? 7);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The app's client and transport settings, each side with its own credentials. */
function client(endpoint: string, key: string): DynamoDBClient {
  return dynamoClient({
    ...sdkTransport(),
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: key, secretAccessKey: `${key}Secret` },
  });
}

async function copyOnce(
  ends: { source: DynamoDBClient; target: DynamoDBClient },
  store: CopyStore,
  from: string,
  to: string,
  verify: boolean,
): Promise<CopyReport> {
  const { requestId: _id, ...settings } = copyStartInput.parse({
    requestId: 'bench-copy',
    source: { connectionId: 'bench:a', table: from },
    target: { connectionId: 'bench:b', table: to, create: true },
    segments: SEGMENTS,
    verify,
  });
  const checkpoint = newCheckpoint(newCopyId(), settings);
  const outcome = await runCopy(
    {
      source: { client: ends.source, label: 'source' },
      target: { client: ends.target, label: 'target' },
      store,
    },
    checkpoint,
    { signal: new AbortController().signal, emit: () => undefined },
  );
  return outcome.value as CopyReport;
}

/** Items per second of one run, and the client CPU per item it cost. */
async function timed(run: () => Promise<void>): Promise<{ rate: number; cpuUs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  return { rate: ITEMS / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / ITEMS };
}

async function main(): Promise<void> {
  const [a, b] = await Promise.all([startDynamoLocal(), startDynamoLocal()]);
  const source = client(a.endpoint, 'SourceAccountKey');
  const target = client(b.endpoint, 'TargetAccountKey');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-copy-bench-'));
  const store = new CopyStore(dataDir);
  const table = 'orders';
  try {
    const loadStart = performance.now();
    await createOrders(source, table);
    await batchLoad(
      source,
      table,
      Array.from({ length: ITEMS }, (_, i) => order(i)),
      6,
    );
    console.log(
      `loaded ${ITEMS} items (~400 B) into A in ${((performance.now() - loadStart) / 1000).toFixed(1)} s; ${SEGMENTS} segments, ${ROUNDS} rounds`,
    );
    // What the load reference writes: the items exactly as the source's Scan returns them.
    const scanned: Record<string, AttributeValue>[] = [];
    await plainScan(source, table, SEGMENTS); // warm-up: JIT, connections, Local's caches
    for (let start: Record<string, AttributeValue> | undefined, page = 0; page < 10_000; page++) {
      const out = await source.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
      scanned.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
      if (!start) break;
    }
    if (scanned.length !== ITEMS) throw new Error(`scanned ${scanned.length} of ${ITEMS}`);
    await copyOnce({ source, target }, store, table, 'warmup', false); // warm-up of the copy's path
    await target.send(new DeleteTableCommand({ TableName: 'warmup' }));

    const ratios: number[] = [];
    const series = { scan: [] as number[], load: [] as number[], copy: [] as number[] };
    const cpu = { scan: [] as number[], load: [] as number[], copy: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const measureScan = () =>
        timed(async () => {
          const n = await plainScan(source, table, SEGMENTS);
          if (n !== ITEMS) throw new Error(`plain scan read ${n}`);
        });
      const measureLoad = async () => {
        const loadTable = `load_${round}`;
        await createOrders(target, loadTable);
        const load = await timed(() => batchLoad(target, loadTable, scanned, SEGMENTS));
        await target.send(new DeleteTableCommand({ TableName: loadTable }));
        return load;
      };
      const measureCopy = async () => {
        const copyTable = `copy_${round}`;
        const copy = await timed(async () => {
          const report = await copyOnce({ source, target }, store, table, copyTable, false);
          if (report.itemsWritten !== ITEMS || report.itemsFailed !== 0)
            throw new Error(`the copy wrote ${report.itemsWritten}, failed ${report.itemsFailed}`);
        });
        await target.send(new DeleteTableCommand({ TableName: copyTable }));
        return copy;
      };
      // The machine's load drifts within a round: odd rounds measure the copy first, even last.
      let scan, load, copy;
      if (round % 2 === 0) {
        scan = await measureScan();
        load = await measureLoad();
        copy = await measureCopy();
      } else {
        copy = await measureCopy();
        load = await measureLoad();
        scan = await measureScan();
      }
      series.scan.push(scan.rate);
      series.load.push(load.rate);
      series.copy.push(copy.rate);
      cpu.scan.push(scan.cpuUs);
      cpu.load.push(load.cpuUs);
      cpu.copy.push(copy.cpuUs);
      const ratio = copy.rate / Math.min(scan.rate, load.rate);
      ratios.push(ratio);
      console.log(
        `round ${round + 1}: scan ${scan.rate.toFixed(0)}, load ${load.rate.toFixed(0)}, copy ${copy.rate.toFixed(0)} items/s; copy / slower = ${ratio.toFixed(2)}`,
      );
    }
    const verified = await timed(async () => {
      const report = await copyOnce({ source, target }, store, table, 'verified', true);
      if (!report.verified?.checksumsMatch) throw new Error('the verified copy does not match');
    });
    const ratio = median(ratios);
    console.log(`plain parallel Scan (A)        ${median(series.scan).toFixed(0)} items/s (median)`);
    console.log(`plain parallel BatchWrite (B)  ${median(series.load).toFixed(0)} items/s (median)`);
    console.log(`copy A → B                     ${median(series.copy).toFixed(0)} items/s (median)`);
    console.log(
      `paired ratio                   ${ratio.toFixed(2)} of the slower reference of each round (median; goal ≥ 0.8) ${ratio >= 0.8 ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `client CPU per item            scan ${median(cpu.scan).toFixed(1)} µs, load ${median(cpu.load).toFixed(1)} µs, copy ${median(cpu.copy).toFixed(1)} µs (median)`,
    );
    console.log(
      `copy + verification pass       ${verified.rate.toFixed(0)} items/s (once; ${(verified.rate / median(series.copy)).toFixed(2)} of the copy alone)`,
    );
  } finally {
    source.destroy();
    target.destroy();
    rmSync(dataDir, { recursive: true, force: true });
    await Promise.all([a.stop(), b.stop()]);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
