import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { fromSdkItem } from '../../src/main/dynamo/marshal';
import {
  initialCursors,
  type PageItems,
  type ScanPage,
  segmentedScan,
} from '../../src/main/dynamo/read/segmented-read';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { rawDynamo, rawScanItems } from '../support/raw-dynamo';

const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
afterAll(() => client.destroy());

type Wire = Record<string, unknown>;
const table = uniqueTableName('wirescan');

/** Every stored item as DynamoDB Local's wire JSON, past the SDK and DynoTable: the oracle. */
const rawItems = (): Promise<Wire[]> => rawScanItems(endpoint, table);

const keyOf = (item: Wire) => JSON.stringify([item.pk, item.sk]);
const byKey = (a: Wire, b: Wire) => keyOf(a).localeCompare(keyOf(b));

async function scanAll<F extends PageItems>(items: F | undefined) {
  const pages: ScanPage<F>[] = [];
  const status = await segmentedScan<F>({
    client,
    table,
    cursors: initialCursors(3),
    totalSegments: 3,
    pageLimit: 7,
    readAhead: true,
    signal: new AbortController().signal,
    ...(items ? { items } : {}),
    onPage: (page) => void pages.push(page),
  });
  return { status, pages };
}

beforeAll(async () => {
  await createTable(client, table, { partitionKey: ['pk', 'S'], sortKey: ['sk', 'N'] });
  await putItems(
    client,
    table,
    Array.from({ length: 60 }, (_, i) => ({
      pk: { S: `P#${i % 9}` },
      sk: { N: String(i) },
      bytes: { B: new Uint8Array([i, 255, 0, 128]) },
      tags: { SS: ['a', `t${i}`] },
    })),
  );
  // Written as wire JSON past the SDK, whose serializer would drop the `__proto__` name.
  await rawDynamo(endpoint, 'PutItem', {
    TableName: table,
    Item: JSON.parse(`{
      "pk": {"S": "hostile"}, "sk": {"N": "1"},
      "__proto__": {"S": "proto"},
      "constructor": {"M": {"toString": {"N": "1"}, "__proto__": {"BS": ["AAE=", "/w=="]}}},
      "caf\\u00e9 \\"q\\"": {"L": [{"NULL": true}, {"BOOL": false}]}
    }`) as unknown,
  });
});

describe("segmentedScan's items: 'wire'", () => {
  it('hands onPage every stored item exactly as DynamoDB sent it, hostile names as own properties', async () => {
    const { status, pages } = await scanAll('wire');
    expect(status).toBe('done');
    const got = pages.flatMap((p) => [...p.items]) as Wire[];
    expect(got.sort(byKey)).toEqual((await rawItems()).sort(byKey));
    const hostile = got.find((i) => (i.pk as { S: string }).S === 'hostile') as Item;
    expect(Object.hasOwn(hostile, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(hostile, '__proto__')?.value).toEqual({ S: 'proto' });
    const inner = hostile.constructor as unknown as { M: Wire };
    const set = Object.getOwnPropertyDescriptor(inner.M, '__proto__')?.value as { BS: string[] };
    expect([...set.BS].sort()).toEqual(['/w==', 'AAE=']);
  });

  it('reads the same pages, counts and cursors as the default (SDK) form, which keeps binary as bytes', async () => {
    const wire = await scanAll('wire');
    const sdk = await scanAll<'sdk'>(undefined);
    expect(sdk.status).toBe('done');
    const shape = (pages: ScanPage<PageItems>[]) =>
      pages.map((p) => JSON.stringify([p.segment, p.items.length, p.scannedCount, p.nextKey ?? null])).sort();
    expect(shape(wire.pages)).toEqual(shape(sdk.pages));
    expect(wire.pages.reduce((n, p) => n + p.consumed, 0)).toBeGreaterThan(0);
    const sdkItems = sdk.pages.flatMap((p) => p.items);
    const withBytes = sdkItems.find((i) => i.bytes !== undefined)?.bytes as { B: unknown } | undefined;
    expect(withBytes?.B).toBeInstanceOf(Uint8Array);
    const sdkAsTagged = sdkItems.map((i) => fromSdkItem(i) as Wire).sort(byKey);
    expect(sdkAsTagged).toEqual((wire.pages.flatMap((p) => [...p.items]) as Wire[]).sort(byKey));
  });
});
