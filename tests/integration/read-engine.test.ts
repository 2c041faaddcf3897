import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { fromSdkItem } from '../../src/main/dynamo/marshal';
import { RateLimiter } from '../../src/main/dynamo/rate-limiter';
import {
  initialCursors,
  type ScanPage,
  segmentedScan,
  type SegmentCursor,
} from '../../src/main/dynamo/read/segmented-read';
import { startFaultyDynamo } from '../support/faulty-dynamo';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { rawDynamo, rawScanItems } from '../support/raw-dynamo';

type Wire = Record<string, unknown>;
const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
afterAll(() => client.destroy());
const table = uniqueTableName('readengine');
const ITEMS = 120;

const keyOf = (item: Wire): string => JSON.stringify(item.pk);
const keys = (items: Wire[]): string[] => items.map(keyOf).sort();
const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/** A read of the whole table in `segments`, 10 items a page, on the wire path. */
function readAll(options: {
  cursors: SegmentCursor[];
  segments: number;
  signal?: AbortSignal;
  onPage?: (page: ScanPage<'wire'>) => unknown;
  on?: typeof client;
  limiter?: RateLimiter;
  onThrottle?: () => void;
}) {
  const items: Wire[] = [];
  const pages: ScanPage<'wire'>[] = [];
  const done = segmentedScan({
    client: options.on ?? client,
    table,
    cursors: options.cursors,
    totalSegments: options.segments,
    pageLimit: 10,
    signal: options.signal ?? new AbortController().signal,
    items: 'wire',
    limiter: options.limiter,
    onThrottle: options.onThrottle,
    onPage: (page) => {
      pages.push(page);
      for (const item of page.items) items.push(item);
      return options.onPage?.(page);
    },
  });
  return { items, pages, done };
}

beforeAll(async () => {
  await createTable(client, table, { partitionKey: ['pk', 'S'] });
  await putItems(
    client,
    table,
    Array.from({ length: ITEMS }, (_, i) => ({ pk: { S: `P#${i}` }, n: { N: String(i) } })),
  );
});

describe('the one read engine (segmentedScan) against DynamoDB Local', () => {
  it('reads every item once over four segments, each segment ending done', async () => {
    const cursors = initialCursors(4);
    const { items, pages, done } = readAll({ cursors, segments: 4 });
    expect(await done).toBe('done');
    expect(keys(items)).toEqual(keys(await rawScanItems(endpoint, table)));
    expect(new Set(pages.map((p) => p.segment))).toEqual(new Set([0, 1, 2, 3]));
    expect(cursors.every((c) => c.done && c.startKey === undefined)).toBe(true);
  });

  it('stops every segment when the destination is full, and its cursors resume without a gap or a repeat', async () => {
    const cursors = initialCursors(3);
    const first = readAll({ cursors, segments: 3, onPage: () => false });
    expect(await first.done).toBe('stopped');
    // One page per segment at most: none asks for another once a destination said "full".
    expect(first.pages.length).toBeLessThanOrEqual(3);
    expect(first.items.length).toBeLessThan(ITEMS);
    // The checkpoint a job store would persist: plain JSON.
    const resumed = JSON.parse(JSON.stringify(cursors)) as SegmentCursor[];
    const rest = readAll({ cursors: resumed, segments: 3 });
    expect(await rest.done).toBe('done');
    const all = [...first.items, ...rest.items];
    expect(all).toHaveLength(ITEMS);
    expect(keys(all)).toEqual(keys(await rawScanItems(endpoint, table)));
  });

  it('cancel mid-read ends with a cancel, and no abort listener is left on the signal', async () => {
    const controller = new AbortController();
    // A slow rate, so the cancel also lands in a rate-limit wait.
    const limiter = new RateLimiter(5);
    const read = readAll({
      cursors: initialCursors(2),
      segments: 2,
      signal: controller.signal,
      limiter,
      onPage: () => {
        expect(listeners(controller.signal)).toBeGreaterThan(0);
        controller.abort();
      },
    });
    await expect(read.done).rejects.toMatchObject({ name: 'AbortError' });
    expect(read.items.length).toBeLessThan(ITEMS);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('a throttled page is retried past the SDK’s own attempts, and the read still gets every item', async () => {
    const faulty = await startFaultyDynamo(endpoint);
    const through = keepProtoNames(localClient(faulty.endpoint));
    try {
      faulty.script({ operation: 'Scan', fault: 'provisioned-throughput', after: 2, next: 6 });
      let throttled = 0;
      const { items, done } = readAll({
        cursors: initialCursors(1),
        segments: 1,
        on: through,
        onThrottle: () => {
          throttled++;
        },
      });
      expect(await done).toBe('done');
      expect(faulty.refused('Scan')).toHaveLength(6);
      expect(throttled).toBe(6);
      expect(keys(items)).toEqual(keys(await rawScanItems(endpoint, table)));
    } finally {
      through.destroy();
      await faulty.close();
    }
  });
});

/** Attribute names a person would not expect to be legal, and DynamoDB's value kinds. */
const hostileName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'a.b', '#x', 'list[0]', 'é "q"', 'hasOwnProperty'),
  fc.string({ minLength: 1, maxLength: 6 }),
);
const leaf = fc.oneof(
  fc.string().map((S) => ({ S })),
  fc.integer().map((n) => ({ N: String(n) })),
  fc.boolean().map((BOOL) => ({ BOOL })),
  fc.constant({ NULL: true }),
  fc.uint8Array({ minLength: 1, maxLength: 5 }).map((b) => ({ B: Buffer.from(b).toString('base64') })),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 })
    .map((SS) => ({ SS })),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }).map((L) => ({ L })),
    fc
      .uniqueArray(fc.tuple(hostileName, tie('v')), { selector: ([k]) => k, maxLength: 3 })
      .map((entries) => ({
        M: Object.fromEntries(entries),
      })),
  ),
})).v;
// Object.fromEntries defines own properties, `__proto__` included; JSON.stringify writes them.
const attributes = fc.uniqueArray(fc.tuple(hostileName, value), {
  selector: ([k]) => k,
  minLength: 1,
  maxLength: 5,
});

describe('the wire decode', () => {
  it('equals the SDK’s unmarshall (then fromSdkItem) and the raw wire JSON, hostile names included', async () => {
    const oracleTable = uniqueTableName('wireoracle');
    await createTable(client, oracleTable, { partitionKey: ['pk', 'S'] });
    const samples = fc.sample(attributes, { numRuns: 40, seed: 27 });
    for (const [i, entries] of samples.entries()) {
      const item = Object.fromEntries(entries.filter(([k]) => k !== 'pk'));
      // Written past the SDK, whose serializer drops a `__proto__` name.
      await rawDynamo(endpoint, 'PutItem', { TableName: oracleTable, Item: { ...item, pk: { S: `K${i}` } } });
    }
    const read = async (items: 'wire' | 'sdk') => {
      const got: unknown[] = [];
      await segmentedScan<typeof items>({
        client,
        table: oracleTable,
        cursors: initialCursors(1),
        totalSegments: 1,
        signal: new AbortController().signal,
        items,
        onPage: (page) => {
          for (const it of page.items) got.push(items === 'sdk' ? fromSdkItem(it as never) : it);
        },
      });
      return got as Wire[];
    };
    const byPk = (a: Wire, b: Wire) => keyOf(a).localeCompare(keyOf(b));
    const wire = (await read('wire')).sort(byPk);
    const sdk = (await read('sdk')).sort(byPk);
    const raw = (await rawScanItems(endpoint, oracleTable)).sort(byPk);
    expect(wire).toHaveLength(samples.length);
    expect(JSON.stringify(raw)).toContain('"__proto__":');
    expect(JSON.stringify(wire)).toBe(JSON.stringify(raw));
    expect(sdk).toEqual(wire);
  });
});
