import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { RateLimiter } from '../../src/main/dynamo/rate-limiter';
import { initialCursors, segmentedScan } from '../../src/main/dynamo/read/segmented-read';
import { putItems } from '../../src/main/dynamo/writes/put-items';
import { listTables } from '../../src/main/dynamo/tables';
import { sleep } from '../../src/main/core/retry';
import { runCopyOperation } from '../support/copy-harness';
import { canonicalItems, rawScanAll } from '../support/copy-oracle';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems as seed } from '../support/dynamo-tables';
import { itemsHarness, type ItemsHarness } from '../support/items-context';
import { startKeyProxy } from '../support/key-proxy';

// Long work shares one cancel across many SDK calls at once: a scan's segments reading ahead, a
// copy's writers, the eight puts of a batch. smithy hooks an abort listener on the signal of every
// request in flight (and every wait hooks one), so on one shared signal Node printed
// "MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners
// added to [AbortSignal]" during long reads. Each call now has a signal of its own.
const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
let h: ItemsHarness;
const ITEMS = 400;
let table: string;

beforeAll(async () => {
  h = itemsHarness(endpoint, copyHandlers);
  table = uniqueTableName('abortlisteners');
  await createTable(client, table, { partitionKey: ['pk', 'S'] });
  await seed(
    client,
    table,
    Array.from({ length: ITEMS }, (_, i) => ({ pk: { S: `P#${i}` }, n: { N: String(i) } })),
  );
});
afterAll(async () => {
  client.destroy();
  await h.close();
});

/** The listener warnings Node emits while `work` runs (on a later tick, so one is waited for). */
async function warningsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  // Only this warning: the SDK's own (NodeVersionSupportWarning on Node 20) is not this test's.
  const listen = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') seen.push(warning.message);
  };
  process.on('warning', listen);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listen);
  }
  return seen;
}

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/**
 * A write rate whose every turn waits 100 ms on the signal it is given, as a real rate's turns
 * do once its second of burst is spent. A real rate waits only when DynamoDB Local answers faster
 * than the rate, which a loaded machine does not promise; this waits however loaded it is.
 */
class EveryTurnWaits extends RateLimiter {
  override take(signal: AbortSignal): Promise<void> {
    return sleep(100, signal);
  }
}

describe('many SDK calls under one cancel', () => {
  it('a 16-segment scan reading ahead prints no listener warning, reads every item, and leaves no listener', async () => {
    const controller = new AbortController();
    const keys: string[] = [];
    const warnings = await warningsDuring(() =>
      segmentedScan({
        client,
        table,
        cursors: initialCursors(16),
        totalSegments: 16,
        pageLimit: 5,
        readAhead: true,
        // A rate, so segments also wait their turn on the way.
        limiter: new RateLimiter(2_000),
        limiterUnit: 'items',
        signal: controller.signal,
        onPage: (page) => {
          for (const item of page.items) keys.push(String(item.pk?.S));
        },
      }),
    );
    expect(warnings).toEqual([]);
    expect(new Set(keys).size).toBe(ITEMS);
    expect(keys).toHaveLength(ITEMS);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('writers sharing a cancel (a copy’s segments, eight puts each) print no listener warning and write every item', async () => {
    const target = uniqueTableName('abortwriters');
    await createTable(client, target, { partitionKey: ['pk', 'S'] });
    const controller = new AbortController();
    const limiter = new EveryTurnWaits(1_000);
    const writer = {
      client,
      table: target,
      keys: { partitionKey: { name: 'pk', type: 'S' as const } },
      policy: { policy: 'skip' as const },
      signal: controller.signal,
      limiter,
      limiterUnit: 'items' as const,
    };
    const batches = Array.from({ length: 4 }, (_, b) =>
      Array.from({ length: 16 }, (_, i) => ({ pk: { S: `W#${b}-${i}` } })),
    );
    let written = 0;
    const warnings = await warningsDuring(() =>
      Promise.all(
        batches.map(async (items) => {
          const out = await putItems(writer, items, (item) => item);
          written += out.written.length;
        }),
      ),
    );
    expect(warnings).toEqual([]);
    expect(written).toBe(64);
    expect(await rawScanAll(endpoint, target)).toHaveLength(64);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('a copy over 16 segments at a write rate prints no listener warning and copies the table exactly', async () => {
    const target = uniqueTableName('abortcopy');
    let report: Awaited<ReturnType<typeof runCopyOperation>> | undefined;
    const warnings = await warningsDuring(async () => {
      report = await runCopyOperation(h, {
        source: { connectionId: 'local', table },
        target: { connectionId: 'local', table: target, create: true },
        segments: 16,
        writeRate: 2_000,
      });
    });
    expect(warnings).toEqual([]);
    expect(report).toMatchObject({ itemsWritten: ITEMS, itemsFailed: 0 });
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(
      canonicalItems(await rawScanAll(endpoint, table)),
    );
  });

  it('listing the tables (four described at once, three calls each) prints no listener warning and lists every table', async () => {
    // A database of its own, so the list is these six tables whatever other files made.
    const own = await startKeyProxy(endpoint);
    const ownClient = localClient(own.endpoint);
    try {
      const names = Array.from({ length: 6 }, (_, i) => `listed_${i}`);
      for (const name of names) await createTable(ownClient, name, { partitionKey: ['pk', 'S'] });
      const controller = new AbortController();
      let listed: string[] = [];
      const warnings = await warningsDuring(async () => {
        listed = (await listTables(ownClient, controller.signal)).map((table) => table.name);
      });
      expect(warnings).toEqual([]);
      expect(listed.sort()).toEqual(names);
      expect(abortListeners(controller.signal)).toBe(0);
    } finally {
      ownClient.destroy();
      await own.close();
    }
  });
});
