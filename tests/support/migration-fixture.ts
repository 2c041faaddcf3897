import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as dynamoose from 'dynamoose';
import { createTable, putItems } from './dynamo-tables';

/**
 * A table as a team mid-way off dynamoose has it: three services writing the same Orders table
 * with Dates in each storage mode, nested updates written by dynamoose 4.x as top-level "a.b"
 * attributes, and hand-made traps. `expected` is tallied here from what was written, never by
 * the code under test.
 */
export async function createOrdersTable(client: DynamoDBClient, table: string): Promise<void> {
  await createTable(client, table, {
    partitionKey: ['pk', 'S'],
    sortKey: ['sk', 'N'],
    globalIndexes: [
      { name: 'byDay', partitionKey: ['gsiDay', 'S'], projection: { ProjectionType: 'KEYS_ONLY' } },
    ],
  });
}

export function pointDynamoose(endpoint: string): void {
  dynamoose.aws.ddb.set(
    new dynamoose.aws.ddb.DynamoDB({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}

const keys = { pk: { type: String, hashKey: true }, sk: { type: Number, rangeKey: true } } as const;
const address = { type: Object, schema: { city: String, zip: String } } as const;
const date = (storage: 'iso' | 'milliseconds' | 'seconds') =>
  ({ type: { value: Date, settings: { storage } } }) as const;
const modelOptions = (table: string) => ({ create: false, waitForActive: false, tableName: table }) as never;

export function ordersModels(table: string) {
  const id = table.replace(/[^A-Za-z0-9]/g, '');
  return {
    iso: dynamoose.model(
      `${id}Iso`,
      new dynamoose.Schema({
        ...keys,
        address,
        createdAt: date('iso'),
        history: { type: Array, schema: [{ type: Object, schema: { at: date('iso') } }] },
        price: Number,
        note: String,
        gsiDay: String,
      }),
      modelOptions(table),
    ),
    millis: dynamoose.model(
      `${id}Ms`,
      new dynamoose.Schema({
        ...keys,
        address,
        createdAt: date('milliseconds'),
        profile: { type: Object, schema: { birthday: String } },
        price: Number,
        gsiDay: String,
      }),
      modelOptions(table),
    ),
    seconds: dynamoose.model(
      `${id}Sec`,
      new dynamoose.Schema({ ...keys, address, createdAt: date('seconds'), price: Number, gsiDay: String }, {
        timestamps: { createdAt: null, updatedAt: 'updatedAt' },
      } as never),
      modelOptions(table),
    ),
    patch: dynamoose.model(`${id}Patch`, new dynamoose.Schema({ ...keys, address }), modelOptions(table)),
  };
}

export const pk = (i: number) => `order#${String(i).padStart(3, '0')}`;
export const keyOf = (i: number) => ({ pk: pk(i), sk: i });
const BASE = Date.UTC(2024, 0, 5, 10, 0, 0);

/** Writes `count` orders through dynamoose; see the rules inline. */
export async function writeOrders(table: string, count: number): Promise<void> {
  const m = ordersModels(table);
  for (let i = 0; i < count; i++) {
    const common = {
      ...keyOf(i),
      price: 1_700_000_000 + i, // epoch-sized, but a price: never a Date
      ...(i % 5 === 0 ? {} : { address: { city: i % 8 === 0 ? 'Valencia' : 'Madrid', zip: '46001' } }),
      ...(i % 6 === 0 ? { gsiDay: '2024-01-05' } : {}),
    };
    const at = new Date(BASE + i * 1000);
    if (i % 3 === 0)
      await m.iso.create({
        ...common,
        createdAt: at,
        history: [{ at }],
        note: `shipped on 2024-01-05, order ${i}`,
      });
    else if (i % 3 === 1)
      await m.millis.create({ ...common, createdAt: at, profile: { birthday: '1990-04-01' } });
    else await m.seconds.create({ ...common, createdAt: at });
    // The dynamoose 4.x nested update that writes a top-level attribute named "address.city".
    if (i % 4 === 0) await m.patch.update(keyOf(i), { $SET: { 'address.city': 'Valencia' } } as never);
  }
}

/** Hand-made traps written with the SDK: nothing dynamoose would produce. */
export async function writeTraps(client: DynamoDBClient, table: string): Promise<void> {
  await putItems(client, table, [
    // dots inside a nested map key are not findings
    {
      pk: { S: 'trap#1' },
      sk: { N: '1' },
      meta: { M: { 'v1.2': { S: 'beta' }, 'x.y': { M: { 'p.q': { N: '1' } } } } },
    },
    // a dotted name whose parent is not a map
    { pk: { S: 'trap#2' }, sk: { N: '2' }, 'status.code': { N: '200' }, status: { S: 'ok' } },
    // near-dates that are not ISO dates
    {
      pk: { S: 'trap#3' },
      sk: { N: '3' },
      ref: { S: '2024-01-05T10:00:00' },
      code: { S: 'INV-2024-01-05' },
      total: { N: '1700000000000' },
    },
    { pk: { S: 'trap#4' }, sk: { N: '4' }, tags: { L: [{ S: 'x' }, { M: { 'due.at': { S: 'soon' } } }] } },
  ]);
}

/** What the report must say, tallied from the rules above. */
export function expectedFindings(count: number) {
  const all = Array.from({ length: count }, (_, i) => i);
  const shadowed = all.filter((i) => i % 4 === 0);
  const noAddress = (i: number) => i % 5 === 0;
  const iso = all.filter((i) => i % 3 === 0);
  const millis = all.filter((i) => i % 3 === 1);
  const seconds = all.filter((i) => i % 3 === 2);
  const first5 = (list: number[]) => list.slice(0, 5).map(keyOf);
  return {
    items: count + 4,
    addressCity: {
      name: 'address.city',
      items: shadowed.length,
      parentMissing: shadowed.filter(noAddress).length,
      missingParentMap: shadowed.filter(noAddress).length,
      parentNotMap: 0,
      sameAsNested: shadowed.filter((i) => !noAddress(i) && i % 8 === 0).length,
      differsFromNested: shadowed.filter((i) => !noAddress(i) && i % 8 !== 0).length,
      sampleKeys: first5(shadowed),
    },
    statusCode: {
      name: 'status.code',
      items: 1,
      parentMissing: 1,
      missingParentMap: 0,
      parentNotMap: 1,
      sameAsNested: 0,
      differsFromNested: 0,
      sampleKeys: [{ pk: 'trap#2', sk: 2 }],
    },
    createdAt: dateFinding('createdAt', { iso, millis, seconds }, { mixed: true, timeNamed: true }),
    history: dateFinding('history[0].at', { iso }, { timeNamed: true }),
    birthday: dateFinding('profile.birthday', { iso: millis, dateOnly: true }, {}),
    gsiDay: dateFinding(
      'gsiDay',
      { iso: all.filter((i) => i % 6 === 0), dateOnly: true },
      { indexKeyOf: ['byDay'] },
    ),
    updatedAt: dateFinding('updatedAt', { millis: seconds }, { timeNamed: true }),
  };
}

function dateFinding(
  path: string,
  kinds: { iso?: number[]; millis?: number[]; seconds?: number[]; dateOnly?: boolean },
  flags: { mixed?: boolean; timeNamed?: boolean; indexKeyOf?: string[] },
) {
  const first5 = (list: number[] = []) => list.slice(0, 5).map(keyOf);
  return {
    path,
    iso: kinds.iso?.length ?? 0,
    isoDateOnly: kinds.dateOnly ? (kinds.iso?.length ?? 0) : 0,
    epochMillis: kinds.millis?.length ?? 0,
    epochSeconds: kinds.seconds?.length ?? 0,
    mixed: flags.mixed ?? false,
    isKey: false,
    indexKeyOf: flags.indexKeyOf ?? [],
    timeNamed: flags.timeNamed ?? false,
    sampleKeys: [...first5(kinds.iso), ...first5(kinds.millis), ...first5(kinds.seconds)],
    sampleKeysByKind: {
      iso: first5(kinds.iso),
      epochMillis: first5(kinds.millis),
      epochSeconds: first5(kinds.seconds),
    },
  };
}
